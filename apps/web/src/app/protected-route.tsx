import { Navigate, Outlet, useLocation } from 'react-router';
import type { RedirectState } from '../lib/redirect-state';
import { useAppSelector } from '../lib/store-hooks';

/**
 * Without an access token in the session, go to sign-in and remember where the user was
 * going (the sign-in page reads it with `redirectPathFrom(location.state)`).
 */
export function ProtectedRoute() {
  const accessToken = useAppSelector((state) => state.auth.accessToken);
  const location = useLocation();

  if (!accessToken) {
    const state: RedirectState = { from: location };
    return <Navigate to="/" replace state={state} />;
  }
  return <Outlet />;
}
