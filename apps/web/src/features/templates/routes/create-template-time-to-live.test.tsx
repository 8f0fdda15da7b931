import { describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { renderRoute, signedIn } from '../../../test/render-with-store';
import { json, pathOf, stubFetch } from '../../../test/fetch-stub';

function server() {
  return stubFetch((request) => {
    if (pathOf(request) === '/recipient/cols') return json(['name', 'email']);
    return json({ count: 0, currentPage: 1, next: null, previous: null, results: [] });
  });
}

const payload = () =>
  JSON.parse(screen.getByLabelText('Template payload JSON').textContent ?? '') as Record<string, unknown>;

describe('Create template: a marketing time-to-live', () => {
  it("offers Meta's marketing choices, WhatsApp's default first, and sends the chosen one", () => {
    server();
    renderRoute('/template/create-template', { preloadedState: signedIn });
    fireEvent.change(screen.getByLabelText('Category'), { target: { value: 'MARKETING' } });
    const ttl = screen.getByLabelText('Message time-to-live') as HTMLSelectElement;
    expect([...ttl.options].map((option) => option.textContent)).toEqual([
      "30 days (WhatsApp's default)",
      '12 hours',
      '1 day',
      '2 days',
      '3 days',
      '7 days',
      '14 days',
    ]);
    expect(payload()).not.toHaveProperty('message_send_ttl_seconds');
    fireEvent.change(ttl, { target: { value: '86400' } });
    expect(payload().message_send_ttl_seconds).toBe(86_400);
    expect(screen.getByText(/How long WhatsApp keeps trying to deliver a message/)).toBeTruthy();
  });

  it('has none for a utility template, and sends none', () => {
    server();
    renderRoute('/template/create-template', { preloadedState: signedIn });
    fireEvent.change(screen.getByLabelText('Category'), { target: { value: 'MARKETING' } });
    fireEvent.change(screen.getByLabelText('Message time-to-live'), { target: { value: '43200' } });
    fireEvent.change(screen.getByLabelText('Category'), { target: { value: 'UTILITY' } });
    expect(screen.queryByLabelText('Message time-to-live')).toBeNull();
    expect(payload()).not.toHaveProperty('message_send_ttl_seconds');
  });
});
