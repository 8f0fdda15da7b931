import { describe, expect, it, vi } from 'vitest';
import { TEMPLATE_LANGUAGES } from '@herald/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { renderRoute, signedIn } from '../../../test/render-with-store';
import { json, pathOf, stubFetch } from '../../../test/fetch-stub';
import type { PreloadedState } from '../../../lib/store';
import type { FacebookLoginResponse, FacebookSdk } from '../../../lib/embedded-signup';

const acme = { waba_id: '111', details: [{ display_name: 'Acme Shop' }] };
const bare = { waba_id: '222', details: [] };
const withAccounts: PreloadedState = {
  ...signedIn,
  waba: { wabaAccounts: [acme, bare], selectedWabaAccount: acme },
};

async function openAccountsTab(preloadedState: PreloadedState = signedIn) {
  const result = renderRoute('/settings', { preloadedState });
  await screen.findByRole('heading', { level: 1, name: 'Settings' });
  fireEvent.click(screen.getByRole('tab', { name: 'WhatsApp Accounts' }));
  return result;
}

describe('settings', () => {
  it('has the five tabs, the first selected, each with its static controls', async () => {
    renderRoute('/settings', { preloadedState: signedIn });
    await screen.findByRole('heading', { level: 1, name: 'Settings' });
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual([
      'Message Settings',
      'Customer Settings',
      'Account Settings',
      'WhatsApp Accounts',
      'Other Settings',
    ]);
    expect(tabs[0]?.getAttribute('aria-selected')).toBe('true');

    const options = (name: string) =>
      within(screen.getByRole('combobox', { name }))
        .getAllByRole('option')
        .map((option) => option.textContent);
    // The spec's three first, then every other template language Meta supports.
    const languages = options('Default Language');
    expect(languages.slice(0, 3)).toEqual(['English', 'Spanish', 'French']);
    expect(languages).toEqual(expect.arrayContaining(['Portuguese (BR)', 'German', 'Arabic (EGY)']));
    expect(languages).toHaveLength(TEMPLATE_LANGUAGES.length);
    expect(screen.getByRole('checkbox', { name: 'Require Approval for New Templates' })).toBeTruthy();

    fireEvent.click(screen.getByRole('tab', { name: 'Customer Settings' }));
    expect(screen.getByRole('checkbox', { name: 'Notify Customers via Email' })).toBeTruthy();
    expect(options('Data Retention')).toEqual(['1 Year', '3 Years', '5 Years']);

    fireEvent.click(screen.getByRole('tab', { name: 'Account Settings' }));
    expect(screen.getByLabelText('Change Email')).toBeTruthy();
    expect(screen.getByLabelText('Change Password')).toBeTruthy();

    fireEvent.click(screen.getByRole('tab', { name: 'Other Settings' }));
    expect(screen.getByRole('checkbox', { name: 'Enable Dark Theme for Dashboard' })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Activate Beta Features' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Other Settings' }).getAttribute('aria-selected')).toBe('true');
  });

  it('lists the stored accounts as cards with a View in Meta button', async () => {
    stubFetch(() => json({ wabas: [acme, bare] }));
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    await openAccountsTab(withAccounts);

    expect(screen.getByRole('heading', { name: 'WhatsApp Business Accounts' })).toBeTruthy();
    const cards = screen.getAllByRole('listitem').filter((item) => item.textContent?.includes('Account ID'));
    expect(cards).toHaveLength(2);
    const [first, second] = cards;
    if (!first || !second) throw new Error('two cards expected');
    expect(within(first).getByText('Account ID: 111')).toBeTruthy();
    expect(within(first).getByText('Active')).toBeTruthy();
    expect(within(first).getByText('Acme Shop')).toBeTruthy();
    expect(within(second).getByText('Account ID: 222')).toBeTruthy();

    fireEvent.click(within(first).getByRole('button', { name: 'View in Meta' }));
    expect(open).toHaveBeenCalledWith(
      'https://business.facebook.com/wa/manage/home/?waba_id=111',
      '_blank',
      'noopener,noreferrer',
    );
  });

  it('shows Loading accounts... and then the empty state', async () => {
    let answer: (response: Response) => void = () => {};
    stubFetch(() => new Promise<Response>((resolve) => (answer = resolve)));
    await openAccountsTab();
    expect(screen.getByText('Loading accounts...')).toBeTruthy();

    answer(json({ wabas: [] }));
    expect(await screen.findByText('No WhatsApp accounts connected yet.')).toBeTruthy();
    expect(screen.getByText('Connect your WhatsApp Business account to get started.')).toBeTruthy();
  });

  it('refreshes the stored list from GET /api/auth/wabas/', async () => {
    const fetch = stubFetch(() => json({ wabas: [bare] }));
    const { store } = await openAccountsTab(withAccounts);
    await waitFor(() => expect(store.getState().waba.wabaAccounts).toEqual([bare]));
    expect(screen.queryByText('Account ID: 111')).toBeNull();
    // Besides the header's figures and the first tab's settings, only the list of accounts is read.
    expect(
      fetch
        .requests()
        .map(pathOf)
        .filter((path) => path !== '/dashboard/header' && path !== '/settings/'),
    ).toEqual(['/api/auth/wabas/']);
  });

  it('Connect New Account runs Embedded Signup, PUTs code and account data, toasts and refreshes the list', async () => {
    const success = vi.spyOn(toast, 'success');
    const added = { waba_id: '333', details: [{ display_name: 'Lucky Shrub' }] };
    let wabas = [acme];
    const fetch = stubFetch((request) => {
      const path = pathOf(request);
      if (path === '/api/auth/signup-config/') {
        return json({
          sdk_url: 'https://sandbox.example/sdk.js',
          app_id: 'app',
          config_id: 'cfg',
          graph_version: 'v21.0',
          trusted_origins: ['https://sandbox.example'],
          sandbox: true,
        });
      }
      if (path === '/api/auth/facebook/callback/') {
        wabas = [acme, added];
        return json({ message: 'WhatsApp account connected successfully!' });
      }
      return json({ wabas });
    });
    const sdk: FacebookSdk = {
      init: vi.fn(),
      login: vi.fn((respond: (response: FacebookLoginResponse) => void) => {
        respond({ authResponse: { code: 'code-9' } });
        window.dispatchEvent(
          new MessageEvent('message', {
            origin: 'https://sandbox.example',
            data: JSON.stringify({
              type: 'WA_EMBEDDED_SIGNUP',
              event: 'FINISH',
              data: { waba_id: '333', phone_number_id: '444' },
            }),
          }),
        );
      }),
    };
    window.FB = sdk;
    try {
      await openAccountsTab({ ...signedIn, waba: { wabaAccounts: [acme], selectedWabaAccount: acme } });
      await screen.findByText('Account ID: 111');
      fireEvent.click(screen.getByRole('button', { name: 'Connect New Account' }));

      expect(await screen.findByText('Account ID: 333')).toBeTruthy();
      expect(success).toHaveBeenCalledWith('WhatsApp account connected successfully!');
      const put = fetch.requests().find((r) => r.method === 'PUT');
      expect(put && pathOf(put)).toBe('/api/auth/facebook/callback/');
      expect(put?.headers.get('Authorization')).toBe('Bearer test-access-token');
      expect(await put?.json()).toEqual({
        payload: { code: 'code-9', account_data: { waba_id: '333', phone_number_id: '444' } },
      });
      expect(screen.getByRole('button', { name: 'Connect New Account' })).toBeTruthy();
    } finally {
      delete window.FB;
    }
  });

  it("shows 'Failed to connect WhatsApp account' with the server's message", async () => {
    const error = vi.spyOn(toast, 'error');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    stubFetch((request) => {
      const path = pathOf(request);
      if (path === '/api/auth/signup-config/') {
        return json({
          sdk_url: 'x',
          app_id: 'a',
          config_id: 'c',
          graph_version: 'v21.0',
          trusted_origins: ['https://www.facebook.com'],
          sandbox: false,
        });
      }
      if (request.method === 'PUT') {
        return json({ detail: 'Account already linked', message: 'Account already linked' }, 409);
      }
      return json({ wabas: [] });
    });
    window.FB = {
      init: vi.fn(),
      login: vi.fn((respond: (response: FacebookLoginResponse) => void) => {
        window.dispatchEvent(
          new MessageEvent('message', {
            origin: 'https://www.facebook.com',
            data: JSON.stringify({
              type: 'WA_EMBEDDED_SIGNUP',
              event: 'FINISH',
              data: { waba_id: '5', phone_number_id: '6' },
            }),
          }),
        );
        respond({ authResponse: { code: 'c' } });
      }),
    };
    try {
      await openAccountsTab();
      await screen.findByText('No WhatsApp accounts connected yet.');
      fireEvent.click(screen.getByRole('button', { name: 'Connect New Account' }));
      await waitFor(() =>
        expect(error).toHaveBeenCalledWith('Failed to connect WhatsApp account: Account already linked'),
      );
    } finally {
      delete window.FB;
    }
  });
});
