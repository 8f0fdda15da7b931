import { useState } from 'react';
import type { ComponentType, FormEvent, ReactNode } from 'react';
import type { LoginResponse } from '@herald/contracts';
import { AuthCard } from '../../../components/auth-card';
import { FormAlert } from '../../../components/form-alert';
import { FormField } from '../../../components/form-field';
import { primaryButtonClass } from '../../../components/button-classes';
import { LOGIN_FAILED_MESSAGE, SignInFailure, requestSignIn } from '../sign-in-request';

/** The spec's label is 'Username', but the account is an e-mail address; the field says so. */
export const USERNAME_HINT = 'Your e-mail address';
export const USERNAME_PLACEHOLDER = 'you@company.com';

/** How the form links to sign-up and password reset: a router link in the app, a plain one before it loads. */
export type SignInLink = ComponentType<{ to: string; children: ReactNode }>;

type SignInFormProps = {
  /** Keeps the session the server answered and opens the next screen; a rejection shows the failure message. */
  onSignedIn: (answer: LoginResponse) => Promise<void>;
  Link: SignInLink;
};

/**
 * Sign-in: the card, the form and its failure message. The message shows once, inline above the fields where
 * the eye already is; a toast repeating it was a second copy of the same words (decision 083). It needs neither
 * the router nor the store, so the same form serves the routed page and the screen main.tsx shows before the app's
 * code has loaded; each says, through its props, where the session goes and how links navigate.
 */
export function SignInForm({ onSignedIn, Link }: SignInFormProps) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setError(null);
    setPending(true);
    try {
      const answer = await requestSignIn({
        username: String(form.get('username') ?? ''),
        password: String(form.get('password') ?? ''),
      });
      await onSignedIn(answer);
    } catch (failure) {
      const message = failure instanceof SignInFailure ? failure.message : LOGIN_FAILED_MESSAGE;
      setError(message);
    } finally {
      setPending(false);
    }
  }

  return (
    <AuthCard
      title="Sign in"
      subtitle="Welcome back. Sign in to manage your WhatsApp broadcasts."
      footer={
        <>
          Don&apos;t have an account? <Link to="/signup">Sign up</Link>
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
          <Link to="/forgot-password">Forgot password?</Link>
        </div>
        <button type="submit" className={`${primaryButtonClass} w-full`} disabled={pending}>
          {pending ? 'Signing in...' : 'Sign in'}
        </button>
      </form>
    </AuthCard>
  );
}
