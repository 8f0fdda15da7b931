import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { renderRoute, signedIn } from '../test/render-with-store';
import { routes } from './router';

const publicHeadings: Array<[string, string]> = [
  ['/', 'Sign in'],
  ['/signup', 'Create your account'],
  ['/forgot-password', 'Forgot password'],
  ['/terms', 'Terms of Service'],
  ['/privacy', 'Privacy Policy'],
];

const protectedHeadings: Array<[string, string]> = [
  ['/dashboard', 'Dashboard'],
  ['/customers', 'Customers'],
  ['/template', 'Your Templates'],
  ['/template/create-template', 'Create Template'],
  ['/templates/42', 'Edit Template'],
  ['/broadcast', 'Broadcast History'],
  ['/broadcast/new', 'New Broadcast'],
  ['/number', 'WhatsApp Numbers'],
  ['/settings', 'Settings'],
];

describe('route table (spec §2)', () => {
  it.each(publicHeadings)('%s is public and shows the heading %s', async (path, heading) => {
    const { router } = renderRoute(path);
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeTruthy();
    expect(router.state.location.pathname).toBe(path);
    await waitFor(() => expect(document.title).toBe(`${heading} · Herald`));
  });

  it.each(protectedHeadings)('%s shows the heading %s when signed in', async (path, heading) => {
    renderRoute(path, { preloadedState: signedIn });
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe(`${heading} · Herald`));
  });

  it('renders the sign-in form of spec §2', async () => {
    renderRoute('/');
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(screen.getByLabelText('Username')).toBeTruthy();
    expect(screen.getByLabelText('Password')).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Remember me' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe(
      '/forgot-password',
    );
    expect(screen.getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe('/signup');
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
  });

  it('shows a not-found page with a link home for unknown paths', async () => {
    renderRoute('/no/such/page', { preloadedState: signedIn });
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go home' }).getAttribute('href')).toBe('/');
  });
});

describe('error fallback', () => {
  function Boom(): never {
    throw new Error('Kaboom in a page');
  }

  // The real table, with one extra protected page that throws while rendering.
  function routesWithThrowingPage(): RouteObject[] {
    const [root] = routes;
    if (!root?.children) throw new Error('route table has no root children');
    return [{ ...root, children: [...root.children, { path: 'boom', element: <Boom /> }] }];
  }

  it("renders 'Unexpected Application Error' with the message and no stack", async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      renderRoute('/boom', { routes: routesWithThrowingPage() });
      expect(await screen.findByRole('heading', { name: 'Unexpected Application Error' })).toBeTruthy();
      expect(screen.getByText('Kaboom in a page')).toBeTruthy();
      expect(document.body.textContent).not.toMatch(/at Boom|\.tsx:\d+/);
      expect(screen.getByRole('link', { name: 'Back to Herald' }).getAttribute('href')).toBe('/');
      await waitFor(() => expect(document.title).toBe('Unexpected Application Error · Herald'));
    } finally {
      consoleError.mockRestore();
      warn.mockRestore();
    }
  });

  it('the root route of the real table has the error fallback', () => {
    expect(routes[0]?.errorElement).toBeTruthy();
  });
});
