import { describe, expect, it } from 'vitest';
import { persistStore } from 'redux-persist';
import { setCredentials } from './auth-slice';
import { setWabaAccounts } from './waba-slice';
import { makeStore, PERSIST_TIMEOUT_MS } from './store';

describe('store', () => {
  it('starts from the initial states', () => {
    const state = makeStore().getState();
    expect(state.auth).toMatchObject({ accessToken: null, refreshToken: null });
    expect(state.waba).toMatchObject({ wabaAccounts: [], selectedWabaAccount: null });
  });

  it('accepts plain preloaded slice states', () => {
    const store = makeStore({ auth: { accessToken: 'a', refreshToken: 'r' } });
    expect(store.getState().auth.accessToken).toBe('a');
  });

  it("persists the session under 'auth' and the accounts under 'waba' in local storage", async () => {
    const store = makeStore();
    const persistor = persistStore(store);
    await new Promise<void>((resolve) => {
      if (persistor.getState().bootstrapped) resolve();
      else persistor.subscribe(() => persistor.getState().bootstrapped && resolve());
    });

    store.dispatch(setCredentials({ accessToken: 'stored-access', refreshToken: 'stored-refresh' }));
    store.dispatch(setWabaAccounts([{ waba_id: '111', details: [] }]));
    await persistor.flush();

    const auth = JSON.parse(localStorage.getItem('persist:auth') ?? '{}') as Record<string, string>;
    expect(JSON.parse(auth.accessToken ?? 'null')).toBe('stored-access');
    expect(JSON.parse(auth.refreshToken ?? 'null')).toBe('stored-refresh');
    const waba = JSON.parse(localStorage.getItem('persist:waba') ?? '{}') as Record<string, string>;
    expect(JSON.parse(waba.selectedWabaAccount ?? 'null')).toEqual({ waba_id: '111', details: [] });
    expect(PERSIST_TIMEOUT_MS).toBe(5000);
  });

  it('rehydrates a stored session', async () => {
    localStorage.setItem(
      'persist:auth',
      JSON.stringify({
        accessToken: '"x"',
        refreshToken: 'null',
        _persist: '{"version":-1,"rehydrated":true}',
      }),
    );
    const store = makeStore();
    const persistor = persistStore(store);
    await new Promise<void>((resolve) => {
      if (persistor.getState().bootstrapped) resolve();
      else persistor.subscribe(() => persistor.getState().bootstrapped && resolve());
    });
    expect(store.getState().auth.accessToken).toBe('x');
  });
});
