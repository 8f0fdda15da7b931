import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { InitialEntry, RouteObject } from 'react-router';
import { makeStore } from '../lib/store';
import type { AppStore, PreloadedState } from '../lib/store';
import { routes as appRoutes } from '../app/router';

type StoreOptions = { preloadedState?: PreloadedState; store?: AppStore };

/** Renders `ui` inside a fresh Redux store (or the one given). */
export function renderWithStore(ui: ReactElement, { preloadedState, store }: StoreOptions = {}) {
  const usedStore = store ?? makeStore(preloadedState);
  return { store: usedStore, ...render(<Provider store={usedStore}>{ui}</Provider>) };
}

type RouteOptions = StoreOptions & { routes?: RouteObject[] };

/** Renders the app's route table (or `routes`) in a memory router starting at `entry`. */
export function renderRoute(entry: InitialEntry, { routes = appRoutes, ...storeOptions }: RouteOptions = {}) {
  const router = createMemoryRouter(routes, { initialEntries: [entry] });
  return { router, ...renderWithStore(<RouterProvider router={router} />, storeOptions) };
}

/** Session state with an access token, which is all the guard checks. */
export const signedIn: PreloadedState = {
  auth: { accessToken: 'test-access-token', refreshToken: 'test-refresh-token' },
};
