import { useContext } from 'react';
import type { LoginResponse } from '@herald/contracts';
import { useLocation, useNavigate } from 'react-router';
import { TextLink } from '../../../components/text-link';
import { PersistorContext } from '../../../lib/persistor-context';
import { redirectPathFrom } from '../../../lib/redirect-state';
import { useAppStore } from '../../../lib/store-hooks';
import { SignInForm } from '../components/sign-in-form';
import { saveSignIn } from '../sign-in-session';

/**
 * Sign-in, inside the app (after signing out, or when the guard sent a visitor here). A visitor who is
 * already signed in still sees the form (signing in again replaces the session); the guard, not this page,
 * decides what needs a session. A first visit to '/' shows the same form before the app has loaded (main.tsx).
 */
export function SignInPage() {
  const store = useAppStore();
  const navigate = useNavigate();
  const location = useLocation();
  const persistor = useContext(PersistorContext);

  async function keepSession(answer: LoginResponse) {
    saveSignIn(store, answer);
    // redux-persist writes on a timer: save the session now, so a reload right after sign-in keeps it.
    await persistor?.flush();
    await navigate(redirectPathFrom(location.state), { replace: true });
  }

  return <SignInForm onSignedIn={keepSession} Link={TextLink} />;
}
