import { fetchBaseQuery } from '@reduxjs/toolkit/query/react';
import type { UnknownAction } from '@reduxjs/toolkit';
import type { BaseQueryFn, FetchArgs, FetchBaseQueryError, FetchBaseQueryMeta } from '@reduxjs/toolkit/query';
import type { RefreshResponse } from '@herald/contracts';
import { logout, updateTokens } from './auth-slice';
import type { AuthState } from './auth-slice';
import { clearWabaAccounts } from './waba-slice';
import type { WabaState } from './waba-slice';
import { isJwtExpired } from './jwt';

/** The refresh call, sent with plain fetch rather than through this base query. */
export const REFRESH_PATH = '/api/login/refresh/';

/** The slices this base query reads; typed here so `src/lib` does not import the store. */
type SessionState = { auth: AuthState; waba: WabaState };

/**
 * Per-endpoint options. `public` marks calls made while signed out (sign-up, password reset, sign-up config;
 * sign-in is a plain fetch, features/auth/sign-in-request.ts): their 401 means "wrong credentials", never
 * "refresh the session".
 */
export type HeraldExtraOptions = { public?: boolean };

// Same origin as the SPA. An absolute base keeps `new Request()` working outside a browser (tests).
const baseUrl = typeof window === 'undefined' ? '' : window.location.origin;

/** The store access the session helpers need: a base query's `api`, or a component's store. */
export type SessionApi = { getState: () => unknown; dispatch: (action: UnknownAction) => unknown };

/**
 * The headers of every product call, the bearer token and the selected account as X-WABA-ID.
 * Exported for the calls that cannot go through fetch (uploads with progress use XMLHttpRequest).
 */
export function sessionHeaders(getState: SessionApi['getState']): Record<string, string> {
  const { auth, waba } = getState() as SessionState;
  const headers: Record<string, string> = {};
  if (auth.accessToken) headers.Authorization = `Bearer ${auth.accessToken}`;
  if (waba.selectedWabaAccount) headers['X-WABA-ID'] = waba.selectedWabaAccount.waba_id;
  return headers;
}

/** The access token a request is about to be sent with, to hand to `recoverFromUnauthorized` on a 401. */
export function currentAccessToken(getState: SessionApi['getState']): string | null {
  return (getState() as SessionState).auth.accessToken;
}

const rawBaseQuery = fetchBaseQuery({
  baseUrl,
  prepareHeaders(headers, { getState }) {
    for (const [name, value] of Object.entries(sessionHeaders(getState))) headers.set(name, value);
    return headers;
  },
});

/** `refused`: the server answered 401, so the session is over (revoked, e.g. a password changed elsewhere). */
type RefreshOutcome = { ok: true } | { ok: false; refused: boolean };

/**
 * The refresh in flight, shared by every request that got a 401 meanwhile: refresh tokens rotate, and
 * a second use of the same one would make the server revoke the whole token family.
 */
let refreshInFlight: Promise<RefreshOutcome> | null = null;

async function refreshTokens(
  refreshToken: string,
  dispatch: SessionApi['dispatch'],
): Promise<RefreshOutcome> {
  try {
    const response = await fetch(`${baseUrl}${REFRESH_PATH}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ refresh: refreshToken }),
    });
    if (!response.ok) {
      console.error('Token refresh failed', new Error(`Token refresh failed with status ${response.status}`));
      return { ok: false, refused: response.status === 401 };
    }
    const body = (await response.json()) as Partial<RefreshResponse>;
    if (typeof body.access !== 'string' || typeof body.refresh !== 'string') {
      throw new Error('Token refresh answered without tokens');
    }
    dispatch(updateTokens({ accessToken: body.access, refreshToken: body.refresh }));
    return { ok: true };
  } catch (error) {
    console.error('Token refresh failed', error);
    return { ok: false, refused: false };
  }
}

function sharedRefresh(refreshToken: string, dispatch: Parameters<typeof refreshTokens>[1]) {
  if (!refreshInFlight) {
    refreshInFlight = refreshTokens(refreshToken, dispatch).finally(() => {
      refreshInFlight = null;
    });
  }
  return refreshInFlight;
}

/**
 * What to do after a request sent with the access token `sentWith` got a 401: answers true when the request
 * should be repeated once (another request already refreshed, or this refresh succeeded); signs out when the
 * refresh token is missing or expired; answers false when the refresh failed (logged).
 */
export async function recoverFromUnauthorized(api: SessionApi, sentWith: string | null): Promise<boolean> {
  const { auth } = api.getState() as SessionState;
  // Another request refreshed while this one was on the way: just repeat it with the new token.
  if (auth.accessToken && auth.accessToken !== sentWith) return true;

  if (!auth.refreshToken || isJwtExpired(auth.refreshToken)) {
    api.dispatch(logout());
    api.dispatch(clearWabaAccounts());
    return false;
  }

  const outcome = await sharedRefresh(auth.refreshToken, api.dispatch);
  // A refresh the server refuses is a session that ended (a password change signs out every other
  // session): sign out as for an expired one. A server that cannot be reached or fails keeps the session.
  if (
    !outcome.ok &&
    outcome.refused &&
    (api.getState() as SessionState).auth.refreshToken === auth.refreshToken
  ) {
    api.dispatch(logout());
    api.dispatch(clearWabaAccounts());
  }
  return outcome.ok;
}

/**
 * The app's one base query: adds the bearer token and X-WABA-ID; on a 401
 * signs out when the refresh token is missing or expired, else refreshes once (shared between
 * concurrent requests) and repeats the request once. A failed refresh is logged and the original error
 * returned.
 */
export const baseQueryWithReauth: BaseQueryFn<
  string | FetchArgs,
  unknown,
  FetchBaseQueryError,
  HeraldExtraOptions,
  FetchBaseQueryMeta
> = async (args, api, extraOptions = {}) => {
  const sentWith = currentAccessToken(api.getState);
  const result = await rawBaseQuery(args, api, extraOptions);
  if (result.error?.status !== 401 || extraOptions.public) return result;
  if (!(await recoverFromUnauthorized(api, sentWith))) return result;
  return rawBaseQuery(args, api, extraOptions);
};
