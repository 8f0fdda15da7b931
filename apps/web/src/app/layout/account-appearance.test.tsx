import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderRoute, signedIn } from '../../test/render-with-store';
import { json, pathOf, stubFetch } from '../../test/fetch-stub';
import type { PreloadedState } from '../../lib/store';
import { DARK_ACCOUNT_KEY } from './account-appearance';

const acme = { waba_id: '111', details: [{ display_name: 'Acme Shop' }] };
const withAccount: PreloadedState = {
  ...signedIn,
  waba: { wabaAccounts: [acme], selectedWabaAccount: acme },
};

afterEach(() => {
  document.documentElement.classList.remove('dark');
  document.documentElement.style.colorScheme = '';
});

/** The header's read with the account's appearance (Other Settings), and an empty page behind it. */
function serve(appearance: { dark_theme: boolean; beta_features: boolean } | undefined) {
  return stubFetch((request) => {
    if (pathOf(request) === '/dashboard/header')
      return json({ contacts: 0, events: [], unread: 0, ...(appearance ? { appearance } : {}) });
    if (pathOf(request) === '/api/auth/logout/') return json({ message: 'Logged out' });
    return json({ data: [] });
  });
}

const dark = () => document.documentElement.classList.contains('dark');

describe("the account's appearance on every screen (decision 040)", () => {
  it('a saved dark theme and beta features apply on load, and light comes back after Logout', async () => {
    serve({ dark_theme: true, beta_features: true });
    renderRoute('/number', { preloadedState: withAccount });
    await waitFor(() => expect(dark()).toBe(true));
    expect(document.documentElement.style.colorScheme).toBe('dark');
    expect(await screen.findByText('Beta')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(dark()).toBe(false));
  });

  it('a dark account is dark before the header answers on the next load (no white flash)', async () => {
    serve({ dark_theme: true, beta_features: false });
    const first = renderRoute('/number', { preloadedState: withAccount });
    await waitFor(() => expect(localStorage.getItem(DARK_ACCOUNT_KEY)).toBe('111'));
    first.unmount();
    expect(dark()).toBe(false);

    stubFetch(() => new Promise<Response>(() => {}));
    renderRoute('/number', { preloadedState: withAccount });
    expect(dark()).toBe(true);
  });

  it('the remembered theme of another account is not applied, and a light answer forgets it', async () => {
    localStorage.setItem(DARK_ACCOUNT_KEY, '999');
    serve({ dark_theme: false, beta_features: false });
    renderRoute('/number', { preloadedState: withAccount });
    expect(dark()).toBe(false);
    await waitFor(() => expect(localStorage.getItem(DARK_ACCOUNT_KEY)).toBeNull());
  });

  it('light and no badge when the account saved neither', async () => {
    serve({ dark_theme: false, beta_features: false });
    renderRoute('/number', { preloadedState: withAccount });
    await screen.findByRole('heading', { level: 1 });
    await waitFor(() => expect(screen.getByRole('button', { name: /Notifications/ })).toBeTruthy());
    expect(dark()).toBe(false);
    expect(screen.queryByText('Beta')).toBeNull();
  });

  it('an answer without the appearance (an older server) leaves the page as it is', async () => {
    serve(undefined);
    renderRoute('/number', { preloadedState: withAccount });
    await waitFor(() => expect(screen.getByRole('button', { name: /Notifications/ })).toBeTruthy());
    expect(dark()).toBe(false);
    expect(screen.queryByText('Beta')).toBeNull();
  });
});
