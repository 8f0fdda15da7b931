import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderRoute, signedIn } from '../../test/render-with-store';
import { json, pathOf, stubFetch } from '../../test/fetch-stub';
import type { PreloadedState } from '../../lib/store';

const withAccounts: PreloadedState = {
  ...signedIn,
  waba: {
    wabaAccounts: [{ waba_id: '111', details: [{ display_name: 'Acme Shop' }] }],
    selectedWabaAccount: { waba_id: '111', details: [{ display_name: 'Acme Shop' }] },
  },
};

const expectedNav: Array<[string, string]> = [
  ['Dashboard', '/dashboard'],
  ['Customers', '/customers'],
  ['Template', '/template'],
  ['Broad Cast', '/broadcast'],
  ['WhatsApp Number', '/number'],
  ['Settings', '/settings'],
];

/** The dashboard's and the header's reads: an account that has sent nothing yet. */
function serverReads(request: Request): Response {
  if (pathOf(request) === '/dashboard/header') return json({ contacts: 0, events: [], unread: 0 });
  if (pathOf(request) === '/dashboard/')
    return json({
      range: { from: '2026-10-26', to: '2026-11-24', tz: 'UTC', days: 30 },
      previous_range: { from: '2026-09-26', to: '2026-10-25' },
      empty: true,
      cards: [],
      days: [],
      categories: [],
      recent_activity: [],
    });
  return json({ detail: 'Not found' }, 404);
}

async function renderLayout(path = '/customers', preloadedState: PreloadedState = signedIn) {
  const result = renderRoute(path, { preloadedState });
  await screen.findByRole('heading', { level: 1 });
  return result;
}

describe('shared layout', () => {
  it('lists exactly the six navigation entries with their links', async () => {
    await renderLayout();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => [link.textContent?.replace(/\d+$/, ''), link.getAttribute('href')])).toEqual(
      expectedNav,
    );
  });

  it('shows no badge without an account: nothing real to count', async () => {
    await renderLayout();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: /Customers/ }).textContent).toBe('Customers');
    expect(within(nav).getByRole('link', { name: /Settings/ }).textContent).toBe('Settings');
    expect(screen.queryByRole('button', { name: /Notifications/ })).toBeNull();
  });

  it('highlights the active link', async () => {
    await renderLayout('/broadcast/new');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Broad Cast' }).getAttribute('aria-current')).toBe('page');
    expect(within(nav).getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current')).toBeNull();
  });

  it('has a header with the page title and Logout', async () => {
    await renderLayout('/template/create-template');
    expect(screen.getByTestId('header-title').textContent).toBe('Create Template');
    expect(screen.getByRole('button', { name: 'Logout' })).toBeTruthy();
  });

  it('shows the current screen by name in a breadcrumb', async () => {
    await renderLayout('/customers');
    const crumb = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(crumb.textContent).toBe('HomeCustomers');
    expect(within(crumb).getByRole('link', { name: 'Home' })).toBeTruthy();
    expect(within(crumb).getByText('Customers').getAttribute('aria-current')).toBe('page');
  });

  it('shows each screen of a nested path by name in the breadcrumb', async () => {
    await renderLayout('/template/create-template');
    const crumb = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(
      within(crumb)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Home', 'Templates', 'Create Template']);
  });

  it('Logout posts to the server and, on 200, clears the session and accounts and goes to sign-in', async () => {
    const fetch = stubFetch((request) =>
      pathOf(request) === '/api/auth/logout/' ? json({ message: 'Logged out' }) : serverReads(request),
    );
    const { store, router } = await renderLayout('/dashboard', withAccounts);
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));

    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
    expect(store.getState().auth).toMatchObject({ accessToken: null, refreshToken: null });
    expect(store.getState().waba).toMatchObject({ wabaAccounts: [], selectedWabaAccount: null });
    const request = fetch.requests().find((r) => pathOf(r) === '/api/auth/logout/');
    expect(request?.method).toBe('POST');
    expect(request && pathOf(request)).toBe('/api/auth/logout/');
    expect(request?.headers.get('Authorization')).toBe('Bearer test-access-token');
  });

  it('Logout keeps the session when the server does not answer 200, and only logs', async () => {
    stubFetch((request) =>
      pathOf(request) === '/api/auth/logout/' ? json({ detail: 'Server error' }, 500) : serverReads(request),
    );
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { store, router } = await renderLayout('/dashboard', withAccounts);
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));

    await waitFor(() => expect(consoleError).toHaveBeenCalledWith('Logout failed', expect.anything()));
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(store.getState().auth.accessToken).toBe('test-access-token');
    expect(store.getState().waba.wabaAccounts).toHaveLength(1);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('is not shown on public screens', async () => {
    renderRoute('/signup', { preloadedState: signedIn });
    await screen.findByRole('heading', { name: 'Create your account' });
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Logout' })).toBeNull();
  });
});

describe('navigation drawer on a phone', () => {
  it('opens from the menu button, then Escape closes it and gives focus back to the button', async () => {
    await renderLayout('/customers');
    const menuButton = screen.getByRole('button', { name: 'Open navigation' });
    const drawer = document.getElementById(menuButton.getAttribute('aria-controls') ?? '');
    expect(drawer).toBeTruthy();
    expect(menuButton.getAttribute('aria-expanded')).toBe('false');
    expect(drawer?.className).toContain('invisible');

    fireEvent.click(menuButton);
    expect(menuButton.getAttribute('aria-expanded')).toBe('true');
    expect(drawer?.className).not.toMatch(/(^|\s)invisible(\s|$)/);
    // Focus moves into the menu, so the keyboard continues there.
    expect(drawer?.contains(document.activeElement)).toBe(true);

    fireEvent.keyDown(document.activeElement ?? document, { key: 'Escape' });
    expect(menuButton.getAttribute('aria-expanded')).toBe('false');
    expect(drawer?.className).toContain('invisible');
    expect(document.activeElement).toBe(menuButton);
  });

  it('ignores other keys while open, and Escape does nothing once it is closed', async () => {
    await renderLayout('/customers');
    const menuButton = screen.getByRole('button', { name: 'Open navigation' });
    fireEvent.click(menuButton);
    fireEvent.keyDown(document, { key: 'Enter' });
    expect(menuButton.getAttribute('aria-expanded')).toBe('true');
    fireEvent.keyDown(document, { key: 'Escape' });
    const logout = screen.getByRole('button', { name: 'Logout' });
    logout.focus();
    fireEvent.keyDown(logout, { key: 'Escape' });
    expect(menuButton.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(logout);
  });

  it('closes when a link in it is followed', async () => {
    const { router } = await renderLayout('/customers');
    const menuButton = screen.getByRole('button', { name: 'Open navigation' });
    fireEvent.click(menuButton);
    fireEvent.click(
      within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Settings' }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings'));
    expect(menuButton.getAttribute('aria-expanded')).toBe('false');
  });
});
