import { useState } from 'react';
import type { FormEvent } from 'react';
import { Link } from 'react-router';
import toast from 'react-hot-toast';
import { AuthCard } from '../../../components/auth-card';
import { FormAlert } from '../../../components/form-alert';
import { FormField } from '../../../components/form-field';
import { TextLink } from '../../../components/text-link';
import { primaryButtonClass } from '../../../components/button-classes';
import { serverMessage } from '../../../lib/server-message';
import { useResetPasswordMutation } from '../api';
import { emailError, passwordError } from '../credential-rules';

export const RESET_FAILED_MESSAGE = 'Could not reset the password. Please try again.';
export const RESET_SUCCESS_MESSAGE = 'Your password has been reset. You can sign in with the new one.';

/** Resets the password with the e-mail and the PIN shown at sign-up (POST /api/auth/password/reset/). */
export function ForgotPasswordPage() {
  const [resetPassword, { isLoading }] = useResetPasswordMutation();
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get('email') ?? '').trim();
    const pin = String(form.get('pin') ?? '').trim();
    const newPassword = String(form.get('new_password') ?? '');
    const invalid = emailError(email) ?? passwordError(newPassword);
    if (invalid) {
      setError(invalid);
      return;
    }
    setError(null);
    try {
      const answer = await resetPassword({ email, pin, new_password: newPassword }).unwrap();
      const message = answer.message || RESET_SUCCESS_MESSAGE;
      setDone(message);
      toast.success(message);
    } catch (failure) {
      setError(serverMessage(failure, ['detail', 'message']) ?? RESET_FAILED_MESSAGE);
    }
  }

  if (done) {
    return (
      <AuthCard title="Forgot password" subtitle="Your password was changed.">
        <FormAlert tone="success">{done}</FormAlert>
        <Link to="/" className={`${primaryButtonClass} mt-6 w-full`}>
          Back to sign in
        </Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Forgot password"
      subtitle="Reset your password with your e-mail and the PIN you saved at sign-up."
      footer={<TextLink to="/">Back to sign in</TextLink>}
    >
      <form className="space-y-4" onSubmit={(event) => void handleSubmit(event)}>
        {error ? <FormAlert>{error}</FormAlert> : null}
        <FormField label="Email" name="email" type="text" inputMode="email" autoComplete="email" required />
        <FormField label="PIN" name="pin" inputMode="numeric" autoComplete="off" maxLength={6} required />
        <FormField
          label="New password"
          name="new_password"
          type="password"
          autoComplete="new-password"
          hint="At least 8 characters."
          required
        />
        <button type="submit" className={`${primaryButtonClass} w-full`} disabled={isLoading}>
          {isLoading ? 'Resetting...' : 'Reset password'}
        </button>
      </form>
    </AuthCard>
  );
}
