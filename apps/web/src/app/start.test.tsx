import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { createRoot } from 'react-dom/client';
import type { Root } from 'react-dom/client';
import toast from 'react-hot-toast';
import { json, pathOf, stubFetch } from '../test/fetch-stub';
import { startHerald } from './start';
import type { LoadApp } from './start';

const wabas = [{ waba_id: '111', details: [{ display_name: 'Acme Shop' }] }];

let container: HTMLDivElement;
let root: Root;

beforeEach(() => {
  // The app module keeps its store and router: each test loads it afresh, as a new page would.
  vi.resetModules();
  container = document.body.appendChild(document.createElement('div'));
  root = createRoot(container);
});

afterEach(() => {
  act(() => root.unmount());
  container.remove();
  act(() => toast.remove());
  window.history.replaceState(null, '', '/');
});

/** The real app module, loaded as main.tsx loads it; the mock records each load asked for. */
function realApp() {
  return vi.fn<LoadApp>(() => import('./app'));
}

function start(path: string, load: LoadApp) {
  window.history.replaceState(null, '', path);
  act(() => startHerald(root, load));
}

function fillAndSubmit(password = 'correct horse') {
  fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'ana@example.com' } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('the first screen', () => {
  it("draws sign-in at '/' without the app, and fetches the app once the user starts on the form", async () => {
    const load = realApp();
    start('/', load);

    expect(screen.getByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe('/signup');
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe(
      '/forgot-password',
    );
    await waitFor(() => expect(document.title).toBe('Sign in · Herald'));
    expect(load).not.toHaveBeenCalled();

    fireEvent.focus(screen.getByLabelText('Username'));
    fireEvent.focus(screen.getByLabelText('Password'));
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('signs in, hands the session to the app and opens the dashboard; the session is stored for a reload', async () => {
    const fetch = stubFetch((request) =>
      pathOf(request) === '/api/auth/login/'
        ? json({ accessToken: 'acc', refreshToken: 'ref', wabas })
        : json({ detail: 'Not found' }, 404),
    );
    const load = realApp();
    start('/', load);

    fillAndSubmit();

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Dashboard' }, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(window.location.pathname).toBe('/dashboard');
    expect(load).toHaveBeenCalledTimes(1);
    const [login] = fetch.requests();
    expect(await login?.json()).toEqual({ username: 'ana@example.com', password: 'correct horse' });
    // What redux-persist reads back on the next load.
    const auth = JSON.parse(localStorage.getItem('persist:auth') ?? '{}') as Record<string, string>;
    expect(JSON.parse(auth.accessToken ?? 'null')).toBe('acc');
    expect(JSON.parse(auth.refreshToken ?? 'null')).toBe('ref');
    const waba = JSON.parse(localStorage.getItem('persist:waba') ?? '{}') as Record<string, string>;
    expect(JSON.parse(waba.selectedWabaAccount ?? 'null')).toEqual(wabas[0]);
  });

  it('a failed sign-in stays on the first screen with the server’s detail, and loads no app', async () => {
    stubFetch(() => json({ detail: 'Invalid email or password' }, 401));
    const load = vi.fn<LoadApp>();
    start('/', load);

    fillAndSubmit('wrong');

    // Said once, in the form's alert (the toaster's live regions are alerts too, and stay empty).
    await waitFor(() =>
      expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toContain(
        'Invalid email or password',
      ),
    );
    expect(screen.getAllByText('Invalid email or password')).toHaveLength(1);
    expect(load).not.toHaveBeenCalled();
    expect(localStorage.getItem('persist:auth')).toBeNull();
  });

  it('opens the path the guard remembered when the page was reloaded after it sent the visitor here', async () => {
    stubFetch((request) =>
      pathOf(request) === '/api/auth/login/'
        ? json({ accessToken: 'acc', refreshToken: 'ref', wabas })
        : json({ detail: 'Not found' }, 404),
    );
    window.history.replaceState({ usr: { from: { pathname: '/terms', search: '', hash: '' } } }, '', '/');
    act(() => startHerald(root, realApp()));

    fillAndSubmit();

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Terms of Service' }, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(window.location.pathname).toBe('/terms');
  });

  it('a link opens the app at its path, as a new history entry', async () => {
    start('/', realApp());
    const entries = window.history.length;

    fireEvent.click(screen.getByRole('link', { name: 'Sign up' }));

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Create your account' }, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(window.location.pathname).toBe('/signup');
    expect(window.history.length).toBe(entries + 1);
  });

  it('opens the app directly on any other path, showing the loading state meanwhile', async () => {
    start('/terms', realApp());

    expect(screen.getByRole('status').textContent).toBe('Loading…');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Terms of Service' }, { timeout: 10_000 }),
    ).toBeTruthy();
  });

  it('says so, with a way to reload, when the app cannot be downloaded', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    start('/customers', () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')));

    expect(await screen.findByRole('heading', { level: 1, name: 'Herald could not load' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Reload the page' }).getAttribute('href')).toBe(
      `${window.location.origin}/customers`,
    );
    expect(error).toHaveBeenCalled();
  });
});
