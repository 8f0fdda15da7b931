import { useState } from 'react';
import type { FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import toast from 'react-hot-toast';
import { PIN_LENGTH, type SignupRequest } from '@herald/contracts';
import { AuthCard } from '../../../components/auth-card';
import { FormField } from '../../../components/form-field';
import { TextLink } from '../../../components/text-link';
import { primaryButtonClass } from '../../../components/button-classes';
import { useAppDispatch } from '../../../lib/store-hooks';
import { EmbeddedSignupError } from '../../../lib/embedded-signup';
import { serverMessage } from '../../../lib/server-message';
import { useEmbeddedSignup } from '../../../lib/use-embedded-signup';
import { clearWabaAccounts } from '../../../lib/waba-slice';
import { useSignupMutation } from '../api';
import { emailError, passwordError, pinError } from '../credential-rules';
import { logout } from '../../../lib/auth-slice';
import {
  MISSING_INFORMATION_MESSAGE,
  SIGNUP_FAILED_MESSAGE,
  SIGNUP_FAILURE_MESSAGES,
  SIGNUP_SUCCESS_MESSAGE,
  SIGNUP_UNPROCESSED_MESSAGE,
} from '../signup-messages';
import type { PinPageState } from './pin-page';

/**
 * Sign-up. The e-mail and password live only in this component's state (never in storage);
 * the provider's code and account ids only in the running flow.
 */
export function SignUpPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const startEmbeddedSignup = useEmbeddedSignup();
  const [signup] = useSignupMutation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [usePin, setUsePin] = useState(false);
  const [pin, setPin] = useState('');
  const [errors, setErrors] = useState<{
    email: string | null;
    password: string | null;
    pin: string | null;
  }>({ email: null, password: null, pin: null });
  const [busy, setBusy] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const checked = {
      email: emailError(email),
      password: passwordError(password),
      pin: usePin ? pinError(pin) : null,
    };
    setErrors(checked);
    if (checked.email || checked.password || checked.pin) return;

    const credentials = { email: email.trim(), password };
    const chosenPin = usePin ? pin : undefined;
    setBusy(true);
    try {
      const { code, accountData } = await startEmbeddedSignup();
      if (!code || !accountData.waba_id || !accountData.phone_number_id || !credentials.email || !password) {
        toast.error(MISSING_INFORMATION_MESSAGE);
        return;
      }
      const request: SignupRequest = {
        code,
        waba_id: accountData.waba_id,
        phone_number_id: accountData.phone_number_id,
        account_data: accountData,
        ...credentials,
        ...(chosenPin ? { pin: chosenPin } : {}),
      };
      const answer = await signup(request).unwrap();
      const createdPin = answer.data?.pin;
      if (!createdPin) {
        toast.error(SIGNUP_UNPROCESSED_MESSAGE);
        return;
      }
      // A successful sign-up starts from a clean slate; the new user signs in next.
      dispatch(logout());
      dispatch(clearWabaAccounts());
      toast.success(SIGNUP_SUCCESS_MESSAGE);
      const state: PinPageState = { pin: createdPin };
      void navigate('/pin', { state });
    } catch (failure) {
      if (failure instanceof EmbeddedSignupError) {
        console.error(failure);
        toast.error(SIGNUP_FAILURE_MESSAGES[failure.failure]);
      } else {
        toast.error(serverMessage(failure, ['message', 'detail']) ?? SIGNUP_FAILED_MESSAGE);
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard
      title="Create your account"
      subtitle="Link your WhatsApp Business account to get started."
      footer={
        <>
          Already have an account? <TextLink to="/">Sign in</TextLink>
        </>
      }
    >
      <form className="space-y-4" onSubmit={(event) => void handleSubmit(event)}>
        <FormField
          label="Email"
          name="email"
          type="text"
          inputMode="email"
          autoComplete="email"
          value={email}
          error={errors.email}
          onChange={(event) => {
            setEmail(event.target.value);
            if (errors.email) setErrors((prev) => ({ ...prev, email: emailError(event.target.value) }));
          }}
          onBlur={() => email !== '' && setErrors((prev) => ({ ...prev, email: emailError(email) }))}
        />
        <FormField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          value={password}
          error={errors.password}
          onChange={(event) => {
            setPassword(event.target.value);
            if (errors.password) {
              setErrors((prev) => ({ ...prev, password: passwordError(event.target.value) }));
            }
          }}
          onBlur={() =>
            password !== '' && setErrors((prev) => ({ ...prev, password: passwordError(password) }))
          }
        />
        <div className="space-y-3 rounded-lg border border-slate-200 bg-slate-50 p-3">
          {/* The switch's own label avoids the word PIN, so "PIN" names only the input below. */}
          <p className="text-sm font-medium text-slate-700">
            Security PIN <span className="font-normal text-slate-500">(optional)</span>
          </p>
          <label className="flex items-center justify-between gap-3 text-sm text-slate-600">
            Choose my own instead of a generated one
            <input
              type="checkbox"
              role="switch"
              checked={usePin}
              onChange={(event) => {
                setUsePin(event.target.checked);
                setErrors((prev) => ({ ...prev, pin: null }));
              }}
              className="h-4 w-4 accent-emerald-600"
            />
          </label>
          {usePin ? (
            <FormField
              label="PIN"
              name="pin"
              inputMode="numeric"
              autoComplete="off"
              maxLength={PIN_LENGTH}
              value={pin}
              hint="6 digits"
              error={errors.pin}
              onChange={(event) => {
                const digits = event.target.value.replace(/\D/g, '').slice(0, PIN_LENGTH);
                setPin(digits);
                if (errors.pin) setErrors((prev) => ({ ...prev, pin: pinError(digits) }));
              }}
              onBlur={() => pin !== '' && setErrors((prev) => ({ ...prev, pin: pinError(pin) }))}
            />
          ) : null}
        </div>
        <label className="flex items-start gap-2 text-sm text-slate-600">
          <input
            type="checkbox"
            name="terms"
            required
            className="mt-0.5 h-4 w-4 rounded border-slate-300 accent-emerald-600"
          />
          <span>
            I agree to the{' '}
            <Link to="/terms" className="font-medium text-emerald-700 hover:underline">
              Terms of Service
            </Link>{' '}
            and{' '}
            <Link to="/privacy" className="font-medium text-emerald-700 hover:underline">
              Privacy Policy
            </Link>
          </span>
        </label>
        <button type="submit" className={`${primaryButtonClass} w-full`} disabled={busy}>
          {busy ? 'Connecting...' : 'Sign up with Facebook'}
        </button>
      </form>
    </AuthCard>
  );
}
