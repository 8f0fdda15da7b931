import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { TemplateClicksResponse } from '@herald/contracts';
import { renderWithStore, signedIn } from '../../../test/render-with-store';
import { json, pathOf, stubFetch } from '../../../test/fetch-stub';
import { TemplateClicksPanel } from './template-clicks-panel';

const answer = (patch: Partial<TemplateClicksResponse>): TemplateClicksResponse => ({
  from: '2026-09-01T00:00:00.000Z',
  whatsapp: {
    total: 4,
    buttons: [
      { type: 'url_button', button: 'Shop now', count: 3 },
      { type: 'quick_reply_button', button: 'Stop promotions', count: 1 },
    ],
  },
  whatsapp_unavailable: null,
  tracked: { people: 2, broadcasts: 1 },
  ...patch,
});

function serve(body: unknown) {
  return stubFetch((request) =>
    pathOf(request) === '/meta/templates/7/clicks/' ? json(body) : json({ detail: 'Not found' }, 404),
  );
}

describe('a template’s clicks', () => {
  it('shows WhatsApp’s taps per button beside the people Herald’s tracked links counted', async () => {
    serve(answer({}));
    renderWithStore(<TemplateClicksPanel templateId="7" />, { preloadedState: signedIn });
    const panel = await screen.findByRole('region', { name: 'Clicks' });
    await within(panel).findByText('Shop now: 3 taps');
    expect(within(panel).getByText('Stop promotions: 1 tap')).toBeTruthy();
    expect(within(panel).getByText('2 people clicked, in 1 broadcast')).toBeTruthy();
    expect(within(panel).getByText('Clicks, last 90 days')).toBeTruthy();
  });

  it('says why WhatsApp has no count, and that nobody clicked', async () => {
    serve(
      answer({
        whatsapp: null,
        whatsapp_unavailable: 'Not submitted to WhatsApp yet',
        tracked: { people: 0, broadcasts: 0 },
      }),
    );
    renderWithStore(<TemplateClicksPanel templateId="7" />, { preloadedState: signedIn });
    expect(await screen.findByText('Not submitted to WhatsApp yet')).toBeTruthy();
    expect(screen.getByText('Nobody clicked')).toBeTruthy();
  });

  it('shows an answer that is not the contract’s shape as unreadable', async () => {
    serve({ count: 0, results: [] });
    renderWithStore(<TemplateClicksPanel templateId="7" />, { preloadedState: signedIn });
    expect(await screen.findByText('The clicks could not be read now.')).toBeTruthy();
  });
});
