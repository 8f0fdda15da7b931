import type { LoginRequest, LoginResponse } from '@herald/contracts';
import { serverMessage } from '../../lib/server-message';

/** The sign-in call. */
export const LOGIN_PATH = '/api/auth/login/';

export const LOGIN_FAILED_MESSAGE = 'Login failed. Please try again.';

/** A sign-in that did not succeed; `message` is what the user is shown (the server's detail when it gave one). */
export class SignInFailure extends Error {
  override name = 'SignInFailure';
}

function isLoginResponse(body: unknown): body is LoginResponse {
  if (typeof body !== 'object' || body === null) return false;
  const { accessToken, refreshToken, wabas } = body as Record<string, unknown>;
  return typeof accessToken === 'string' && typeof refreshToken === 'string' && Array.isArray(wabas);
}

/**
 * Signs in with plain fetch: the sign-in screen is the first one most visits load, and this keeps
 * Redux Toolkit's query layer out of its JavaScript. The call is made signed out, so a 401 means wrong
 * credentials and is never followed by a token refresh. Resolves with the session; rejects with SignInFailure.
 */
export async function requestSignIn(credentials: LoginRequest): Promise<LoginResponse> {
  let response: Response;
  try {
    // Same origin as the SPA; absolute, as the app's base query does, so it also works outside a browser (tests).
    response = await fetch(`${window.location.origin}${LOGIN_PATH}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(credentials),
      // Sends this browser's device cookie and keeps the one a success sets (decision 063): a browser that
      // signed in before keeps its own sign-in attempts when strangers have locked everyone else out.
      credentials: 'same-origin',
    });
  } catch {
    throw new SignInFailure(LOGIN_FAILED_MESSAGE);
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok)
    throw new SignInFailure(serverMessage({ data: body }, ['detail']) ?? LOGIN_FAILED_MESSAGE);
  if (!isLoginResponse(body)) throw new SignInFailure(LOGIN_FAILED_MESSAGE);
  return body;
}
