import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { DashboardHeaderResponse, HeaderEvent } from '@herald/contracts';
import { renderRoute, signedIn } from '../../test/render-with-store';
import { json, pathOf, stubFetch } from '../../test/fetch-stub';
import type { PreloadedState } from '../../lib/store';
import { api } from '../../lib/api';

const withAccount: PreloadedState = {
  ...signedIn,
  waba: {
    wabaAccounts: [{ waba_id: '111', details: [{ display_name: 'Acme Shop' }] }],
    selectedWabaAccount: { waba_id: '111', details: [{ display_name: 'Acme Shop' }] },
  },
};

const events: HeaderEvent[] = [
  {
    id: 2,
    kind: 'broadcast_completed',
    title: 'Summer launch',
    detail: 'Broadcast completed',
    at: '2026-11-24T09:00:00.000Z',
    link: '/broadcast/7',
    unread: true,
  },
  {
    id: 1,
    kind: 'import_finished',
    title: 'Contacts imported',
    detail: '1,204 created, 3 updated',
    at: '2026-11-23T09:00:00.000Z',
    link: '/customers',
    unread: false,
  },
];

/** A server whose header answers `contacts` and whose unread count drops to 0 once seen is posted. */
function stubHeader(contacts = 1234) {
  let unread = 1;
  return stubFetch(async (request) => {
    const path = pathOf(request);
    if (path === '/dashboard/header/seen') {
      unread = 0;
      return json({ unread });
    }
    if (path === '/dashboard/header') {
      const body: DashboardHeaderResponse = {
        contacts,
        events: events.map((event) => ({ ...event, unread: unread > 0 && event.unread })),
        unread,
      };
      return json(body);
    }
    return json({ count: 0, next: null, previous: null, results: [] });
  });
}

const headerReads = (fetch: ReturnType<typeof stubFetch>) =>
  fetch.requests().filter((request) => pathOf(request) === '/dashboard/header');

describe('header and navigation tell the truth', () => {
  it('shows the account’s contact count on Customers, and no Settings badge', async () => {
    const fetch = stubHeader();
    renderRoute('/template', { preloadedState: withAccount });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    const customers = await within(nav).findByRole('link', { name: /^Customers\s*1,234\s*contacts$/ });
    expect(customers.getAttribute('href')).toBe('/customers');
    expect(within(nav).getByRole('link', { name: 'Settings' }).textContent).toBe('Settings');
    expect(headerReads(fetch)[0]?.headers.get('X-WABA-ID')).toBe('111');
  });

  it('the bell’s badge is the unread count; opening lists the events, marks them seen, Escape closes', async () => {
    const fetch = stubHeader();
    renderRoute('/template', { preloadedState: withAccount });
    const bell = await screen.findByRole('button', { name: 'Notifications, 1 unread' });
    expect(within(bell).getByTestId('bell-badge').textContent).toBe('1');
    expect(bell.getAttribute('aria-expanded')).toBe('false');

    fireEvent.click(bell);
    const panel = screen.getByRole('region', { name: 'Notifications' });
    expect(bell.getAttribute('aria-expanded')).toBe('true');
    expect(
      within(panel)
        .getByRole('link', { name: /Summer launch/ })
        .getAttribute('href'),
    ).toBe('/broadcast/7');
    expect(
      within(panel)
        .getByRole('link', { name: /Contacts imported/ })
        .getAttribute('href'),
    ).toBe('/customers');
    // Focus moves into the list, so the keyboard continues there.
    expect(panel.contains(document.activeElement)).toBe(true);

    await waitFor(() =>
      expect(fetch.requests().some((request) => pathOf(request) === '/dashboard/header/seen')).toBe(true),
    );
    const seen = fetch.requests().find((request) => pathOf(request) === '/dashboard/header/seen')!;
    expect(seen.method).toBe('POST');
    expect(await seen.json()).toEqual({ up_to: '2026-11-24T09:00:00.000Z' });
    // Seen: the header is read again and the badge goes.
    await waitFor(() => expect(screen.queryByTestId('bell-badge')).toBeNull());
    expect(screen.getByRole('button', { name: 'Notifications' })).toBe(bell);

    fireEvent.keyDown(document.activeElement ?? document, { key: 'Escape' });
    expect(screen.queryByRole('region', { name: 'Notifications' })).toBeNull();
    expect(document.activeElement).toBe(bell);
  });

  it('reads the figures again on navigation', async () => {
    const fetch = stubHeader();
    const { router } = renderRoute('/template', { preloadedState: withAccount });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    await within(nav).findByRole('link', { name: /^Customers\s*1,234\s*contacts$/ });
    const before = headerReads(fetch).length;
    fireEvent.click(within(nav).getByRole('link', { name: 'Broad Cast' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/broadcast'));
    await waitFor(() => expect(headerReads(fetch).length).toBeGreaterThan(before));
  });

  it('shows the new count as soon as contacts change (an import, an add), without leaving the page', async () => {
    let contacts = 3;
    stubFetch((request) =>
      pathOf(request) === '/dashboard/header'
        ? json({ contacts, events: [], unread: 0 })
        : json({ count: 0, next: null, previous: null, results: [] }),
    );
    const { store } = renderRoute('/template', { preloadedState: withAccount });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    await within(nav).findByRole('link', { name: /^Customers\s*3\s*contacts$/ });
    contacts = 1_203;
    // What the import dialog and every contact change tell the cache.
    act(() => void store.dispatch(api.util.invalidateTags(['Contacts'])));
    await within(nav).findByRole('link', { name: /^Customers\s*1,203\s*contacts$/ });
  });

  it('a bell without events says what will appear there', async () => {
    stubFetch((request) =>
      pathOf(request) === '/dashboard/header'
        ? json({ contacts: 0, events: [], unread: 0 })
        : json({ count: 0, next: null, previous: null, results: [] }),
    );
    renderRoute('/template', { preloadedState: withAccount });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    await within(nav).findByRole('link', { name: /^Customers\s*0\s*contacts$/ });
    fireEvent.click(screen.getByRole('button', { name: 'Notifications' }));
    expect(screen.getByRole('region', { name: 'Notifications' }).textContent).toContain(
      'No notifications yet',
    );
  });
});
