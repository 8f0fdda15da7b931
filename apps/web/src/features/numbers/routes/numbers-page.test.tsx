import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderRoute, signedIn } from '../../../test/render-with-store';
import { json, pathOf, stubFetch } from '../../../test/fetch-stub';
import type { PreloadedState } from '../../../lib/store';
import { formatGraphTime } from '../graph-time';

const account = { waba_id: '111', details: [{ display_name: 'Acme Shop' }] };
const withAccount: PreloadedState = {
  ...signedIn,
  waba: { wabaAccounts: [account], selectedWabaAccount: account },
};

const number = {
  id: '1906385232743451',
  verified_name: "Jasper's Market",
  display_phone_number: '+1 631-555-5555',
  code_verification_status: 'VERIFIED',
  quality_rating: 'GREEN',
  platform_type: 'CLOUD_API',
  throughput: { level: 'STANDARD' },
  last_onboarded_time: '2025-06-01T10:00:00+0000',
  messaging_limit_tier: 'TIER_1K',
};

describe('WhatsApp numbers', () => {
  it('lists the numbers of the selected account in the spec columns', async () => {
    const fetch = stubFetch(() => json({ data: [number] }));
    renderRoute('/number', { preloadedState: withAccount });
    expect(screen.getByText('Loading...')).toBeTruthy();

    const table = await screen.findByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual([
      'Verified Name',
      'Display Phone Number',
      'Code Verification Status',
      'Quality Rating',
      'Platform Type',
      'Throughput Level',
      'Last Onboarded Time',
      'ID',
    ]);
    const [, row] = within(table).getAllByRole('row');
    expect(
      within(row as HTMLElement)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([
      "Jasper's Market",
      '+1 631-555-5555',
      'VERIFIED',
      'GREEN',
      'CLOUD_API',
      'STANDARD',
      formatGraphTime('2025-06-01T10:00:00+0000'),
      '1906385232743451',
    ]);
    // The user's local time, never Meta's raw ISO text; the exact instant stays in the markup.
    const time = within(row as HTMLElement).getByText(formatGraphTime('2025-06-01T10:00:00+0000'));
    expect(time.tagName).toBe('TIME');
    expect(time.getAttribute('dateTime')).toBe('2025-06-01T10:00:00+0000');
    expect(within(table).queryByText(/2025-06-01T/)).toBeNull();
    // The header's figures are read too: this is the page's own call.
    const request = fetch.requests().find((r) => pathOf(r) !== '/dashboard/header');
    expect(request && pathOf(request)).toBe('/meta/phone/whatsapp/');
    expect(request?.headers.get('X-WABA-ID')).toBe('111');
    expect(request?.headers.get('Authorization')).toBe('Bearer test-access-token');
  });

  it("shows 'Error: {message}' when the call fails", async () => {
    stubFetch(() => json({ detail: 'No WhatsApp Business account selected' }, 400));
    renderRoute('/number', { preloadedState: withAccount });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Error: No WhatsApp Business account selected',
    );
  });

  it('refetches for the newly selected account', async () => {
    const other = { waba_id: '222', details: [] };
    const fetch = stubFetch((request) =>
      json({
        data:
          request.headers.get('X-WABA-ID') === '222'
            ? [{ ...number, id: '2', verified_name: 'Other' }]
            : [number],
      }),
    );
    const { store } = renderRoute('/number', {
      preloadedState: { ...signedIn, waba: { wabaAccounts: [account, other], selectedWabaAccount: account } },
    });
    await screen.findByText("Jasper's Market");
    store.dispatch({ type: 'waba/selectWabaAccount', payload: other });
    expect(await screen.findByText('Other')).toBeTruthy();
    expect(screen.queryByText("Jasper's Market")).toBeNull();
    expect(
      fetch
        .requests()
        .filter((r) => pathOf(r) === '/meta/phone/whatsapp/')
        .map((r) => r.headers.get('X-WABA-ID')),
    ).toEqual(['111', '222']);
  });
});
