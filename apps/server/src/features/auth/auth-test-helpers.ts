import type { FastifyInstance } from 'fastify';
import {
  makeBusiness,
  sandboxBusiness,
  type SandboxBusiness,
  signUpPayload,
} from '../../../../../test-support/business';
import type { TestApp } from '../../../../../test-support/test-app';

// The business itself is made by test-support/business.ts, the one way for every suite; what stays here are
// the raw sign-up and login requests that the auth tests examine answer by answer.
export { sandboxBusiness, type SandboxBusiness };

export async function sandboxState(sandboxUrl: string) {
  const response = await fetch(`${sandboxUrl}/__sandbox/state`);
  return (await response.json()) as {
    registrations: Array<{ phone_number_id: string; pin: string }>;
    subscriptions: Array<{ waba_id: string }>;
    codes: Array<{ code: string; used: boolean }>;
  };
}

export function signUp(
  app: FastifyInstance,
  business: SandboxBusiness,
  fields: Record<string, unknown> = {},
) {
  return app.inject({
    method: 'POST',
    url: '/api/auth/facebook/callback/',
    payload: signUpPayload(business, fields),
  });
}

export function login(app: FastifyInstance, username: string, password: string, remoteAddress = '127.0.0.1') {
  return app.inject({
    method: 'POST',
    url: '/api/auth/login/',
    payload: { username, password },
    remoteAddress,
  });
}

/** Signs a new user up with a new sandbox business and signs them in. */
export async function signedInUser(testApp: TestApp, email: string, businessName = 'Acme Shop') {
  const { business, accessToken, refreshToken } = await makeBusiness(testApp, { email, businessName });
  return { business, accessToken, refreshToken };
}
