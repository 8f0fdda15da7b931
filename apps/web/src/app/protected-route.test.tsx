import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { redirectPathFrom } from '../lib/redirect-state';
import { renderRoute, signedIn } from '../test/render-with-store';

const protectedPaths = [
  '/dashboard',
  '/customers',
  '/template',
  '/template/create-template',
  '/templates/abc123',
  '/broadcast',
  '/broadcast/new',
  '/number',
  '/settings',
];

describe('guard', () => {
  it.each(protectedPaths)(
    'sends a visitor without a token from %s to sign-in, remembering the path',
    async (path) => {
      const { router } = renderRoute(path);

      expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
      expect(router.state.location.pathname).toBe('/');
      const state = router.state.location.state as { from: { pathname: string } };
      expect(state.from.pathname).toBe(path);
      expect(redirectPathFrom(router.state.location.state)).toBe(path);
    },
  );

  it('remembers the query string and hash of the attempted path', async () => {
    const { router } = renderRoute('/customers?page=2#top');
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(redirectPathFrom(router.state.location.state)).toBe('/customers?page=2#top');
  });

  it('replaces the history entry, so Back does not loop into the guard', async () => {
    const { router } = renderRoute('/dashboard');
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('shows the nested page when the session has an access token', async () => {
    const { router } = renderRoute('/customers', { preloadedState: signedIn });
    expect(await screen.findByRole('heading', { level: 1, name: 'Customers' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/customers');
  });

  it('treats a session with only a refresh token as signed out', async () => {
    const { router } = renderRoute('/settings', {
      preloadedState: { auth: { accessToken: null, refreshToken: 'r' } },
    });
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(router.state.location.pathname).toBe('/');
  });
});

describe('redirectPathFrom', () => {
  it('falls back to the dashboard without a remembered path', () => {
    expect(redirectPathFrom(undefined)).toBe('/dashboard');
    expect(redirectPathFrom(null)).toBe('/dashboard');
    expect(redirectPathFrom({ from: { pathname: '/' } })).toBe('/dashboard');
    expect(redirectPathFrom({ other: 1 })).toBe('/dashboard');
  });
});
