import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import toast from 'react-hot-toast';
import { renderRoute } from '../../../test/render-with-store';
import { json, pathOf, stubFetch } from '../../../test/fetch-stub';
import { AppToaster } from '../../../lib/app-toaster';

const wabas = [
  {
    waba_id: '111',
    details: [{ display_name: 'Acme Shop', phone_number_id: '9', display_phone_number: '+1 555 0100' }],
  },
  { waba_id: '222', details: [] },
];

function fillAndSubmit(username = 'ana@example.com', password = 'correct horse') {
  fireEvent.change(screen.getByLabelText('Username'), { target: { value: username } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('sign-in', () => {
  it('stores tokens and accounts and opens the path the guard remembered', async () => {
    const fetch = stubFetch(() => json({ accessToken: 'acc', refreshToken: 'ref', wabas }));
    const { store, router } = renderRoute('/customers?page=2');
    await screen.findByRole('heading', { name: 'Sign in' });

    fillAndSubmit();
    expect(await screen.findByRole('button', { name: 'Signing in...' })).toBeTruthy();

    expect(await screen.findByRole('heading', { level: 1, name: 'Customers' })).toBeTruthy();
    expect(router.state.location.pathname + router.state.location.search).toBe('/customers?page=2');
    expect(store.getState().auth).toEqual({ accessToken: 'acc', refreshToken: 'ref' });
    expect(store.getState().waba.wabaAccounts).toEqual(wabas);
    expect(store.getState().waba.selectedWabaAccount?.waba_id).toBe('111');

    const [request] = fetch.requests();
    expect(request && pathOf(request)).toBe('/api/auth/login/');
    expect(request?.method).toBe('POST');
    expect(await request?.json()).toEqual({ username: 'ana@example.com', password: 'correct horse' });
  });

  it('goes to the dashboard without a remembered path', async () => {
    stubFetch(() => json({ accessToken: 'acc', refreshToken: 'ref', wabas: [] }));
    const { router } = renderRoute('/');
    await screen.findByRole('heading', { name: 'Sign in' });
    fillAndSubmit();
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' });
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it("shows the server's detail once, inline beside the form (no toast), and stays signed out", async () => {
    const error = vi.spyOn(toast, 'error');
    stubFetch(() => json({ detail: 'Invalid email or password' }, 401));
    const { store, router } = renderRoute('/');
    await screen.findByRole('heading', { name: 'Sign in' });

    fillAndSubmit('ana@example.com', 'wrong');

    expect((await screen.findByRole('alert')).textContent).toBe('Invalid email or password');
    expect(error).not.toHaveBeenCalled();
    expect(store.getState().auth.accessToken).toBeNull();
    expect(router.state.location.pathname).toBe('/');
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
  });

  it("falls back to 'Login failed. Please try again.' without a server detail", async () => {
    stubFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    renderRoute('/');
    await screen.findByRole('heading', { name: 'Sign in' });
    fillAndSubmit();
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe('Login failed. Please try again.'),
    );
  });

  it('does not try a token refresh on a wrong password', async () => {
    const fetch = stubFetch(() => json({ detail: 'Invalid email or password' }, 401));
    renderRoute('/', { preloadedState: { auth: { accessToken: 'stale', refreshToken: 'stale-refresh' } } });
    await screen.findByRole('heading', { name: 'Sign in' });
    fillAndSubmit();
    await screen.findByRole('alert');
    expect(fetch.requests().map(pathOf)).toEqual(['/api/auth/login/']);
  });
});

describe('sign-in frictions', () => {
  it("keeps the spec's 'Username' label and says it takes an e-mail address", async () => {
    renderRoute('/');
    const input = await screen.findByLabelText('Username');
    expect(input.getAttribute('placeholder')).toBe('you@company.com');
    expect(screen.getByText('Your e-mail address').id).toBe(input.getAttribute('aria-describedby'));
    expect(input.getAttribute('inputmode')).toBe('email');
  });

  it('says a failure once, inline, however often sign-in fails, and no toast repeats it', async () => {
    let attempt = 0;
    stubFetch(() =>
      ++attempt <= 2
        ? json({ detail: 'Invalid email or password' }, 401)
        : json({ accessToken: 'acc', refreshToken: 'ref', wabas }),
    );
    render(<AppToaster />);
    renderRoute('/');
    await screen.findByRole('heading', { name: 'Sign in' });
    const toastsAnnounced = () =>
      [...screen.getByTestId('toast-announcer').querySelectorAll('[role="alert"] p')].map(
        (p) => p.textContent,
      );

    fillAndSubmit('ana@example.com', 'wrong');
    await screen.findByRole('button', { name: 'Sign in' });
    expect(screen.getAllByText('Invalid email or password')).toHaveLength(1);
    fillAndSubmit('ana@example.com', 'still wrong');
    await waitFor(() => expect(attempt).toBe(2));
    await screen.findByRole('button', { name: 'Sign in' });
    expect(screen.getAllByText('Invalid email or password')).toHaveLength(1);
    expect(toastsAnnounced()).toEqual([]);

    fillAndSubmit();
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' });
    expect(screen.queryByText('Invalid email or password')).toBeNull();
  });
});
