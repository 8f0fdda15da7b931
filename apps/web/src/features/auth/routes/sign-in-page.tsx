import type { FormEvent } from 'react';
import { AuthCard } from '../../../components/auth-card';
import { FormField } from '../../../components/form-field';
import { TextLink } from '../../../components/text-link';
import { primaryButtonClass } from '../../../components/button-classes';

export function SignInPage() {
  // Signing in arrives with the auth API; until then the form only stays on the page.
  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
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
      <form className="space-y-4" onSubmit={handleSubmit}>
        <FormField label="Username" name="username" autoComplete="username" required />
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
        <button type="submit" className={`${primaryButtonClass} w-full`}>
          Sign in
        </button>
      </form>
    </AuthCard>
  );
}
