import { lazy } from 'react';
import type { ComponentType, ReactElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
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
  ['/customers/segments', 'Segments'],
  ['/template', 'Your Templates'],
  ['/template/create-template', 'Create Template'],
  ['/templates/42', 'Edit Template'],
  ['/broadcast', 'Broadcast History'],
  ['/broadcast/new', 'New Broadcast'],
  ['/number', 'WhatsApp Numbers'],
  ['/settings', 'Settings'],
];

describe('route table', () => {
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

  it('renders the sign-in form', async () => {
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

describe('code splitting', () => {
  function flatten(table: RouteObject[]): RouteObject[] {
    return table.flatMap((route) => [route, ...flatten(route.children ?? [])]);
  }

  /** The layout route of the real table (the one holding the protected screens). */
  function layoutRoute(table: RouteObject[]): RouteObject {
    const layout = flatten(table).find((route) =>
      route.children?.some((child) => child.path === 'dashboard'),
    );
    if (!layout) throw new Error('no layout route');
    return layout;
  }

  it('loads every screen but sign-in and not-found on its first visit', () => {
    // A lazy page (./lazy-pages) carries the `preload` that starts its download.
    const isLazy = (route: RouteObject) => 'preload' in ((route.element as ReactElement).type as object);
    const screens = flatten(routes[0]?.children ?? []).filter((route) => route.handle);
    expect(screens.filter((route) => !isLazy(route)).map((route) => route.path ?? 'index')).toEqual([
      'index',
      '*',
    ]);
    expect(screens.filter(isLazy)).toHaveLength(16);
  });

  it('shows a loading state inside the layout while a page downloads, then the page', async () => {
    let arrive: (module: { default: ComponentType }) => void = () => {};
    const Slow = lazy(() => new Promise<{ default: ComponentType }>((resolve) => (arrive = resolve)));
    const [root] = routes;
    if (!root?.children) throw new Error('route table has no root children');
    const table: RouteObject[] = [{ ...root }];
    const layout = layoutRoute(table);
    // A copy of the real table with one more protected page whose code arrives when the test says.
    const withSlow = (route: RouteObject): RouteObject => {
      if (!route.children) return route;
      const children = route.children.map(withSlow);
      if (route === layout) children.push({ path: 'slow', element: <Slow /> });
      return { ...route, index: false, children };
    };
    renderRoute('/slow', { routes: table.map(withSlow), preloadedState: signedIn });

    const loading = await screen.findByRole('status');
    expect(loading.textContent).toBe('Loading…');
    // The frame is already there: navigation and header do not wait for the page.
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeTruthy();
    expect(screen.getByRole('main').contains(loading)).toBe(true);
    expect(screen.queryByRole('heading', { level: 1 })).toBeNull();

    await act(async () => arrive({ default: () => <h1>Slow page</h1> }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Slow page' })).toBeTruthy();
    expect(within(screen.getByRole('main')).queryByText('Loading…')).toBeNull();
  });
});
