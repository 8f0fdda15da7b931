import { useContext, useState } from 'react';
import type { FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import toast from 'react-hot-toast';
import { AuthCard } from '../../../components/auth-card';
import { FormAlert } from '../../../components/form-alert';
import { FormField } from '../../../components/form-field';
import { TextLink } from '../../../components/text-link';
import { primaryButtonClass } from '../../../components/button-classes';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { PersistorContext } from '../../../app/persistor-context';
import { api } from '../../../lib/api';
import { redirectPathFrom } from '../../../lib/redirect-state';
import { serverMessage } from '../../../lib/server-message';
import { clearWabaAccounts, setWabaAccounts } from '../../accounts/waba-slice';
import { useLoginMutation } from '../api';
import { setCredentials } from '../auth-slice';

export const LOGIN_FAILED_MESSAGE = 'Login failed. Please try again.';

/** Issue 17: the spec's label is 'Username', but the account is an e-mail address; the field says so. */
export const USERNAME_HINT = 'Your e-mail address';
export const USERNAME_PLACEHOLDER = 'you@company.com';

/** One id for the form's failure toast: a new failure replaces it, and success dismisses it. */
const FAILURE_TOAST_ID = 'sign-in-failed';

/**
 * Spec §2 Sign-in. A visitor who is already signed in still sees the form (signing in again replaces
 * the session); the guard, not this page, decides what needs a session.
 */
export function SignInPage() {
  const [login, { isLoading }] = useLoginMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const persistor = useContext(PersistorContext);
  const selected = useAppSelector((state) => state.waba.selectedWabaAccount);
  const [error, setError] = useState<string | null>(null);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setError(null);
    try {
      const answer = await login({
        username: String(form.get('username') ?? ''),
        password: String(form.get('password') ?? ''),
      }).unwrap();
      dispatch(api.util.resetApiState());
      dispatch(setCredentials({ accessToken: answer.accessToken, refreshToken: answer.refreshToken }));
      // Keep a stored selection only if it belongs to this user.
      if (selected && !answer.wabas.some((account) => account.waba_id === selected.waba_id)) {
        dispatch(clearWabaAccounts());
      }
      dispatch(setWabaAccounts(answer.wabas));
      // redux-persist writes on a timer: save the session now, so a reload right after sign-in keeps it.
      await persistor?.flush();
      toast.dismiss(FAILURE_TOAST_ID);
      void navigate(redirectPathFrom(location.state), { replace: true });
    } catch (failure) {
      const message = serverMessage(failure, ['detail']) ?? LOGIN_FAILED_MESSAGE;
      setError(message);
      toast.error(message, { id: FAILURE_TOAST_ID });
    }
  }

  return (
    <AuthCard
      title="Sign in"
      subtitle="Welcome back. Sign in to manage your WhatsApp broadcasts."
      footer={
        <>
          Don&apos;t have an account? <TextLink to="/signup">Sign up</TextLink>
        </>
      }
    >
      <form className="space-y-4" onSubmit={(event) => void handleSubmit(event)}>
        {error ? <FormAlert>{error}</FormAlert> : null}
        <FormField
          label="Username"
          name="username"
          autoComplete="username"
          inputMode="email"
          placeholder={USERNAME_PLACEHOLDER}
          hint={USERNAME_HINT}
          required
        />
        <FormField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
        />
        <div className="flex items-center justify-between text-sm">
          <label className="flex items-center gap-2 text-slate-600">
            <input
              type="checkbox"
              name="remember"
              className="h-4 w-4 rounded border-slate-300 accent-emerald-600"
            />
            Remember me
          </label>
          <TextLink to="/forgot-password">Forgot password?</TextLink>
        </div>
        <button type="submit" className={`${primaryButtonClass} w-full`} disabled={isLoading}>
          {isLoading ? 'Signing in...' : 'Sign in'}
        </button>
      </form>
    </AuthCard>
  );
}
