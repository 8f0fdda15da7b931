import { describe, expect, it, vi } from 'vitest';
import type { BaseQueryApi } from '@reduxjs/toolkit/query';
import { makeStore } from './store';
import type { AppStore, PreloadedState } from './store';
import { expIn, fakeJwt } from '../test/fake-jwt';
import { json, pathOf, stubFetch } from '../test/fetch-stub';
import { baseQueryWithReauth, REFRESH_PATH } from './base-query';
import type { HeraldExtraOptions } from './base-query';

const account = { waba_id: '111', details: [{ display_name: 'Acme Shop' }] };
const liveRefresh = fakeJwt({ sid: 's1', exp: expIn(3600) });
const expiredRefresh = fakeJwt({ sid: 's1', exp: expIn(-60) });

function signedInWith(refreshToken: string | null): PreloadedState {
  return {
    auth: { accessToken: 'old-access', refreshToken },
    waba: { wabaAccounts: [account], selectedWabaAccount: account },
  };
}

function apiFor(store: AppStore): BaseQueryApi {
  return {
    dispatch: store.dispatch,
    getState: store.getState,
    signal: new AbortController().signal,
    abort: () => {},
    extra: undefined,
    endpoint: 'test',
    type: 'query',
  };
}

function query(store: AppStore, url = '/meta/phone/whatsapp/', extraOptions: HeraldExtraOptions = {}) {
  return baseQueryWithReauth(url, apiFor(store), extraOptions);
}

/** A server whose API accepts only `validAccess`, and whose refresh endpoint answers `refreshAnswer`. */
function server(refreshAnswer: () => Response | Promise<Response>, validAccess = 'new-access') {
  return stubFetch((request) => {
    if (pathOf(request) === REFRESH_PATH) return refreshAnswer();
    return request.headers.get('Authorization') === `Bearer ${validAccess}`
      ? json({ data: ['ok'] })
      : json({ detail: 'Token expired' }, 401);
  });
}

describe('base query (request retry, headers)', () => {
  it('sends the bearer token and the selected account as X-WABA-ID', async () => {
    const fetch = stubFetch(() => json({ data: [] }));
    const store = makeStore(signedInWith(liveRefresh));
    const result = await query(store);

    expect(result.data).toEqual({ data: [] });
    const [request] = fetch.requests();
    expect(request?.headers.get('Authorization')).toBe('Bearer old-access');
    expect(request?.headers.get('X-WABA-ID')).toBe('111');
    expect(new URL(request?.url ?? '').origin).toBe(window.location.origin);
  });

  it('sends no bearer or X-WABA-ID when signed out with no account', async () => {
    const fetch = stubFetch(() => json({}));
    await query(makeStore());
    const [request] = fetch.requests();
    expect(request?.headers.has('Authorization')).toBe(false);
    expect(request?.headers.has('X-WABA-ID')).toBe(false);
  });

  it('on a 401 refreshes once with plain fetch, stores both new tokens and repeats the request', async () => {
    const rotated = fakeJwt({ sid: 's1', exp: expIn(7200) });
    const fetch = server(() => json({ access: 'new-access', refresh: rotated }));
    const store = makeStore(signedInWith(liveRefresh));

    const result = await query(store);

    expect(result.data).toEqual({ data: ['ok'] });
    expect(store.getState().auth).toEqual({ accessToken: 'new-access', refreshToken: rotated });
    const requests = fetch.requests();
    expect(requests.map(pathOf)).toEqual(['/meta/phone/whatsapp/', REFRESH_PATH, '/meta/phone/whatsapp/']);
    const refresh = requests[1];
    expect(refresh?.method).toBe('POST');
    expect(await refresh?.json()).toEqual({ refresh: liveRefresh });
    expect(refresh?.headers.has('Authorization')).toBe(false);
    expect(requests[2]?.headers.get('Authorization')).toBe('Bearer new-access');
    expect(requests[2]?.headers.get('X-WABA-ID')).toBe('111');
  });

  it('repeats the request only once: a second 401 is returned', async () => {
    const fetch = server(() => json({ access: 'still-refused', refresh: liveRefresh }));
    const store = makeStore(signedInWith(liveRefresh));
    const result = await query(store);
    expect(result.error?.status).toBe(401);
    expect(fetch.requests().map(pathOf)).toEqual([
      '/meta/phone/whatsapp/',
      REFRESH_PATH,
      '/meta/phone/whatsapp/',
    ]);
  });

  it('signs out (session and accounts cleared) when the refresh token has expired, without refreshing', async () => {
    const fetch = server(() => json({ access: 'new-access', refresh: liveRefresh }));
    const store = makeStore(signedInWith(expiredRefresh));

    const result = await query(store);

    expect(result.error?.status).toBe(401);
    expect(store.getState().auth).toEqual({ accessToken: null, refreshToken: null });
    expect(store.getState().waba).toEqual({ wabaAccounts: [], selectedWabaAccount: null });
    expect(fetch.requests().map(pathOf)).toEqual(['/meta/phone/whatsapp/']);
  });

  it('signs out when there is no refresh token at all', async () => {
    server(() => json({}));
    const store = makeStore(signedInWith(null));
    await query(store);
    expect(store.getState().auth.accessToken).toBeNull();
  });

  it('when the server refuses the refresh (401: the session was ended elsewhere), logs it, returns the original error and signs out', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const fetch = stubFetch((request) =>
      pathOf(request) === REFRESH_PATH
        ? json({ detail: 'Refresh token reused' }, 401)
        : json({ detail: 'Original problem' }, 401),
    );
    const store = makeStore(signedInWith(liveRefresh));

    const result = await query(store);

    expect(result.error).toEqual({ status: 401, data: { detail: 'Original problem' } });
    expect(consoleError).toHaveBeenCalledWith('Token refresh failed', expect.any(Error));
    expect(store.getState().auth).toEqual({ accessToken: null, refreshToken: null });
    expect(fetch.requests().map(pathOf)).toEqual(['/meta/phone/whatsapp/', REFRESH_PATH]);
  });

  it('when the refresh fails on the server (5xx), logs it and returns the original error, keeping the session', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    stubFetch((request) =>
      pathOf(request) === REFRESH_PATH
        ? json({ detail: 'Service unavailable' }, 503)
        : json({ detail: 'Original problem' }, 401),
    );
    const store = makeStore(signedInWith(liveRefresh));

    const result = await query(store);

    expect(result.error).toEqual({ status: 401, data: { detail: 'Original problem' } });
    expect(consoleError).toHaveBeenCalledWith('Token refresh failed', expect.any(Error));
    expect(store.getState().auth).toEqual({ accessToken: 'old-access', refreshToken: liveRefresh });
  });

  it('returns the original error when the refresh cannot reach the server', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    stubFetch((request) => {
      if (pathOf(request) === REFRESH_PATH) throw new TypeError('Failed to fetch');
      return json({ detail: 'Original problem' }, 401);
    });
    const result = await query(makeStore(signedInWith(liveRefresh)));
    expect(result.error).toEqual({ status: 401, data: { detail: 'Original problem' } });
  });

  it('shares one refresh between concurrent 401s (refresh tokens rotate)', async () => {
    let releaseRefresh: () => void = () => {};
    const refreshGate = new Promise<void>((resolve) => {
      releaseRefresh = resolve;
    });
    const rotated = fakeJwt({ sid: 's1', exp: expIn(7200) });
    const fetch = server(async () => {
      await refreshGate;
      return json({ access: 'new-access', refresh: rotated });
    });
    const store = makeStore(signedInWith(liveRefresh));

    const first = query(store, '/meta/phone/whatsapp/');
    const second = query(store, '/api/auth/wabas/');
    await vi.waitFor(() =>
      expect(fetch.requests().filter((r) => pathOf(r) === REFRESH_PATH)).toHaveLength(1),
    );
    releaseRefresh();
    const [a, b] = await Promise.all([first, second]);

    expect(a.data).toEqual({ data: ['ok'] });
    expect(b.data).toEqual({ data: ['ok'] });
    expect(fetch.requests().filter((r) => pathOf(r) === REFRESH_PATH)).toHaveLength(1);
    expect(store.getState().auth.refreshToken).toBe(rotated);
  });

  it('repeats without refreshing when another request already refreshed meanwhile', async () => {
    const fetch = server(() => json({ access: 'unused', refresh: liveRefresh }));
    const store = makeStore(signedInWith(liveRefresh));
    // The token changes while the request is on the way (another request's refresh finished).
    fetch.mockImplementationOnce(async (input) => {
      store.dispatch({
        type: 'auth/updateTokens',
        payload: { accessToken: 'new-access', refreshToken: liveRefresh },
      });
      void input;
      return json({ detail: 'Token expired' }, 401);
    });
    const result = await query(store);
    expect(result.data).toEqual({ data: ['ok'] });
    expect(
      fetch.mock.calls.some(([input]) => input instanceof Request && pathOf(input) === REFRESH_PATH),
    ).toBe(false);
  });

  it('does not refresh or sign out on a 401 from a public call (wrong password)', async () => {
    const fetch = server(() => json({ access: 'new-access', refresh: liveRefresh }));
    const store = makeStore(signedInWith(expiredRefresh));
    const result = await query(store, '/api/auth/login/', { public: true });
    expect(result.error?.status).toBe(401);
    expect(store.getState().auth.accessToken).toBe('old-access');
    expect(fetch.requests()).toHaveLength(1);
  });
});
