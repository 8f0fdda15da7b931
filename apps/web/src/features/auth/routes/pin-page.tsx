import { useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { AuthCard } from '../../../components/auth-card';
import { primaryButtonClass, secondaryButtonClass } from '../../../components/button-classes';

/** How long the Copy button reads 'Copied'. */
export const COPIED_INDICATOR_MS = 2000;

/** Navigation state the sign-up screen passes to /pin. */
export type PinPageState = { pin: string };

function pinFrom(state: unknown): string | null {
  if (typeof state !== 'object' || state === null || !('pin' in state)) return null;
  const { pin } = state as { pin: unknown };
  if (typeof pin === 'number') return String(pin);
  return typeof pin === 'string' && pin.length > 0 ? pin : null;
}

export function PinPage() {
  const location = useLocation();
  const pin = pinFrom(location.state);
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  if (pin === null) {
    return (
      <AuthCard title="PIN not available">
        <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-700">
          PIN number not found. Please try signing up again.
        </div>
        <Link to="/signup" className={`${primaryButtonClass} mt-6 w-full`}>
          Return to Sign Up
        </Link>
      </AuthCard>
    );
  }

  async function copyPin(value: string) {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      return; // No clipboard (e.g. an insecure origin): the digits stay on screen to copy by hand.
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_INDICATOR_MS);
  }

  return (
    <AuthCard title="PIN Created Successfully" subtitle="Your account is now secured with a PIN">
      <ul className="flex justify-center gap-2" aria-label="Your PIN">
        {[...pin].map((digit, index) => (
          <li
            key={index}
            className="flex h-12 w-10 items-center justify-center rounded-lg border border-emerald-200 bg-emerald-50 text-xl font-semibold text-emerald-800"
          >
            {digit}
          </li>
        ))}
      </ul>
      <div className="mt-4 flex justify-center">
        <button type="button" className={secondaryButtonClass} onClick={() => void copyPin(pin)}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <p className="mt-6 rounded-lg bg-amber-50 p-3 text-sm text-amber-800">
        Save this PIN somewhere secure: you will need it to access your account if you forget your password.
        With your e-mail, it sets a new one (Forgot password? on the sign-in screen).
      </p>
      <Link to="/" className={`${primaryButtonClass} mt-6 w-full`}>
        Continue to Sign In
      </Link>
    </AuthCard>
  );
}
