import type { Location } from 'react-router';

/** Navigation state the guard leaves for the sign-in page: where the user was going. */
export type RedirectState = { from: Location };

export const DEFAULT_SIGNED_IN_PATH = '/dashboard';

/** The path to open after sign-in: the attempted one remembered by the guard, else the dashboard. */
export function redirectPathFrom(state: unknown): string {
  if (typeof state === 'object' && state !== null && 'from' in state) {
    const from = (state as { from?: Partial<Location> | null }).from;
    if (from && typeof from.pathname === 'string' && from.pathname !== '/') {
      return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
    }
  }
  return DEFAULT_SIGNED_IN_PATH;
}
