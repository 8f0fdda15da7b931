import { accountHealthNotices, type AccountHealthResponse } from '@herald/contracts';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PreloadedState } from '../lib/store';
import { json, pathOf, stubFetch } from '../test/fetch-stub';
import { renderRoute, signedIn } from '../test/render-with-store';
import { AccountHealthBanner } from './account-health-banner';

const GOOD: AccountHealthResponse = {
  ban: null,
  restrictions: [],
  restricted_since: null,
  violation: null,
  disconnected: null,
  review: null,
};

function renderHealth(health: AccountHealthResponse) {
  return render(<AccountHealthBanner accountName="Acme Shop" notices={accountHealthNotices(health)} />);
}

describe('AccountHealthBanner', () => {
  it('shows nothing for an account in good standing', () => {
    const { container } = renderHealth(GOOD);
    expect(container.innerHTML).toBe('');
  });

  it('announces a ban as an alert: what WhatsApp did, since when, what it stops, and that nothing resumes by itself', () => {
    renderHealth({
      ...GOOD,
      ban: { state: 'DISABLE', date: '2026-11-27T00:00:00.000Z', since: '2026-11-27T09:30:00.000Z' },
    });
    const banner = screen.getByRole('alert', { name: 'WhatsApp account status' });
    expect(banner.textContent).toContain('Sending has stopped for Acme Shop');
    expect(banner.textContent).toContain('WhatsApp disabled this business account on 27 Nov 2026, 00:00 UTC');
    expect(banner.textContent).toContain('No messages can be sent');
    expect(banner.textContent).toContain('resume them yourself');
  });

  it('says until when a restriction lasts, and shows warnings (a violation) as a status, not an alert', () => {
    renderHealth({
      ...GOOD,
      restrictions: [{ type: 'RESTRICTED_ADD_PHONE_NUMBER_ACTION', expires_at: '2026-12-01T12:00:00.000Z' }],
      restricted_since: '2026-11-20T08:00:00.000Z',
      violation: { type: 'SCAM', at: '2026-11-19T08:00:00.000Z' },
    });
    expect(screen.queryByRole('alert')).toBeNull();
    const banner = screen.getByRole('status', { name: 'WhatsApp account status' });
    const items = banner.querySelectorAll('li');
    expect(items[0]!.textContent).toBe(
      'WhatsApp stopped this account from adding phone numbers since 20 Nov 2026, 08:00 UTC until 1 Dec 2026, 12:00 UTC. Sending is not affected.',
    );
    expect(items[1]!.textContent).toContain('policy violation on this account (SCAM) on 19 Nov 2026');
  });

  it('an account Herald was cut off from, or Meta has not approved, stops sending and says what brings it back', () => {
    renderHealth({
      ...GOOD,
      disconnected: { event: 'PARTNER_REMOVED', since: '2026-11-27T09:30:00.000Z' },
      review: { decision: 'REJECTED', since: '2026-11-26T10:00:00.000Z' },
    });
    const items = screen.getByRole('alert', { name: 'WhatsApp account status' }).querySelectorAll('li');
    expect(items[0]!.textContent).toBe(
      'This business account removed Herald as its partner on 27 Nov 2026, 09:30 UTC: nothing can be sent until its owner adds Herald back in Meta Business Suite. Broadcasts that were sending or scheduled are paused.',
    );
    expect(items[1]!.textContent).toBe(
      "WhatsApp rejected this business account in its review (it does not meet WhatsApp's policies): nothing can be sent until WhatsApp approves it (since 26 Nov 2026, 10:00 UTC). Broadcasts that were sending or scheduled are paused: resume them once it is approved.",
    );
  });

  it('a restriction of business-initiated messaging stops broadcasts until WhatsApp lifts it', () => {
    renderHealth({
      ...GOOD,
      restrictions: [{ type: 'RESTRICTED_BIZ_INITIATED_MESSAGING', expires_at: null }],
      restricted_since: '2026-11-20T08:00:00.000Z',
    });
    const banner = screen.getByRole('alert');
    expect(banner.textContent).toContain(
      'WhatsApp restricted this account from starting conversations since 20 Nov 2026, 08:00 UTC until WhatsApp lifts it.',
    );
    expect(banner.textContent).toContain('Templates and broadcasts cannot be sent');
  });
});

describe('the banner on every screen', () => {
  const withAccount: PreloadedState = {
    ...signedIn,
    waba: {
      wabaAccounts: [{ waba_id: '111', details: [{ display_name: 'Acme Shop' }] }],
      selectedWabaAccount: { waba_id: '111', details: [{ display_name: 'Acme Shop' }] },
    },
  };

  it("shows the header's account health on the numbers screen, with no request of its own", async () => {
    const fetch = stubFetch((request) =>
      pathOf(request) === '/dashboard/header'
        ? json({
            contacts: 0,
            events: [],
            unread: 0,
            account_health: {
              ...GOOD,
              ban: { state: 'DISABLE', date: null, since: '2026-11-27T09:30:00.000Z' },
            },
          })
        : json({ detail: 'Not found' }, 404),
    );
    renderRoute('/number', { preloadedState: withAccount });
    const banner = await screen.findByRole('alert', { name: 'WhatsApp account status' });
    expect(banner.textContent).toContain('WhatsApp disabled this business account on 27 Nov 2026, 09:30 UTC');
    expect(fetch.requests().map(pathOf)).not.toContain('/dashboard/account-health');
  });
});
