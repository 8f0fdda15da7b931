import { describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { renderRoute, signedIn } from '../../../test/render-with-store';
import { json, pathOf, stubFetch } from '../../../test/fetch-stub';

function server(mmApiState = 'onboarded') {
  return stubFetch((request) => {
    if (pathOf(request) === '/recipient/cols') return json(['name', 'email']);
    if (pathOf(request) === '/marketing-messages/')
      return json({
        waba_id: 'w',
        state: mmApiState,
        meta_status: mmApiState === 'onboarded' ? 'ONBOARDED' : 'ELIGIBLE',
        reason: null,
        requested_at: null,
        status_since: null,
        can_start: mmApiState !== 'onboarded',
        routes_marketing: mmApiState === 'onboarded',
      });
    return json({ count: 0, currentPage: 1, next: null, previous: null, results: [] });
  });
}

const payload = () =>
  JSON.parse(screen.getByLabelText('Template payload JSON').textContent ?? '') as Record<string, unknown>;
const FIELD = 'Maximum price per delivered message (USD)';

describe('Create template: a marketing maximum price', () => {
  it("sends a price typed in dollars per message as Meta's cents per 1,000 deliveries", () => {
    server();
    renderRoute('/template/create-template', { preloadedState: signedIn });
    fireEvent.change(screen.getByLabelText('Category'), { target: { value: 'MARKETING' } });
    const field = screen.getByLabelText(FIELD);
    expect(payload()).not.toHaveProperty('max_price_bid_amount');
    expect(screen.getByText(/WhatsApp charges this or less for each delivery/)).toBeTruthy();
    fireEvent.change(field, { target: { value: '$0.025' } });
    expect(payload().max_price_bid_amount).toBe(2_500);
    fireEvent.change(field, { target: { value: '' } });
    expect(payload()).not.toHaveProperty('max_price_bid_amount');
  });

  it('says in dollars what is wrong with a typed price, and saves nothing', () => {
    const requests = server();
    renderRoute('/template/create-template', { preloadedState: signedIn });
    fireEvent.change(screen.getByLabelText('Template Name'), { target: { value: 'spring_sale' } });
    fireEvent.change(screen.getByLabelText('Category'), { target: { value: 'MARKETING' } });
    fireEvent.change(screen.getByLabelText(FIELD), { target: { value: '0.0000001' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Template' }));
    expect(screen.getByText('The maximum price must have at most 5 decimals')).toBeTruthy();
    expect(screen.getByLabelText(FIELD).getAttribute('aria-invalid')).toBe('true');
    expect(requests.requests().some((request) => request.method === 'POST')).toBe(false);
  });

  it('has none for a utility template, and sends none', () => {
    server();
    renderRoute('/template/create-template', { preloadedState: signedIn });
    fireEvent.change(screen.getByLabelText('Category'), { target: { value: 'MARKETING' } });
    fireEvent.change(screen.getByLabelText(FIELD), { target: { value: '0.05' } });
    fireEvent.change(screen.getByLabelText('Category'), { target: { value: 'UTILITY' } });
    expect(screen.queryByLabelText(FIELD)).toBeNull();
    expect(payload()).not.toHaveProperty('max_price_bid_amount');
  });

  it('is off, saying why, for an account not onboarded to the Marketing Messages API', async () => {
    server('not_onboarded');
    renderRoute('/template/create-template', { preloadedState: signedIn });
    fireEvent.change(screen.getByLabelText('Category'), { target: { value: 'MARKETING' } });
    expect(
      await screen.findByText(
        'A maximum price applies to sends through the Marketing Messages API: onboard this account in Settings to set one.',
      ),
    ).toBeTruthy();
    expect((screen.getByLabelText(FIELD) as HTMLInputElement).disabled).toBe(true);
  });
});
