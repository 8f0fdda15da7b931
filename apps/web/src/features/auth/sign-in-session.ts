import type { LoginResponse } from '@herald/contracts';
import { api } from '../../lib/api';
import type { AppDispatch, RootState } from '../../lib/store';
import { clearWabaAccounts, setWabaAccounts } from '../../lib/waba-slice';
import { setCredentials } from '../../lib/auth-slice';

/** The store a session is saved into: the app's, or a test's. */
export type SessionStore = { dispatch: AppDispatch; getState: () => RootState };

/**
 * Saves the session a sign-in answered into the store: both tokens, the user's accounts, and the
 * stored account selection only if it belongs to this user. Server data cached for a previous user is dropped.
 * The one place a sign-in becomes store state, whether it came from the routed sign-in page or the sign-in
 * screen that loads before the app (main.tsx).
 */
export function saveSignIn(store: SessionStore, answer: LoginResponse): void {
  store.dispatch(api.util.resetApiState());
  store.dispatch(setCredentials({ accessToken: answer.accessToken, refreshToken: answer.refreshToken }));
  const selected = store.getState().waba.selectedWabaAccount;
  if (selected && !answer.wabas.some((account) => account.waba_id === selected.waba_id)) {
    store.dispatch(clearWabaAccounts());
  }
  store.dispatch(setWabaAccounts(answer.wabas));
}
