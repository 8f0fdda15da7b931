import type { FastifyInstance } from 'fastify';
import type { TestApp } from '../../../../../test-support/test-app';

export interface SandboxBusiness {
  waba_id: string;
  phone_number_id: string;
  business_id: string;
  code: string;
}

/** A business that finished Embedded Signup at the sandbox: its ids and a fresh one-time code. */
export async function sandboxBusiness(sandboxUrl: string, name = 'Acme Shop'): Promise<SandboxBusiness> {
  const response = await fetch(`${sandboxUrl}/__sandbox/wabas`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ business_name: name }),
  });
  if (response.status !== 201) throw new Error(`sandbox answered ${response.status}`);
  return (await response.json()) as SandboxBusiness;
}

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
    payload: {
      code: business.code,
      waba_id: business.waba_id,
      phone_number_id: business.phone_number_id,
      account_data: { waba_id: business.waba_id, phone_number_id: business.phone_number_id },
      email: 'owner@acme.test',
      password: 'correct horse',
      ...fields,
    },
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
  const business = await sandboxBusiness(testApp.sandboxUrl, businessName);
  const signup = await signUp(testApp.app, business, { email });
  if (signup.statusCode !== 200) throw new Error(`sign-up failed: ${signup.body}`);
  const session = await login(testApp.app, email, 'correct horse');
  const body = session.json() as { accessToken: string; refreshToken: string };
  return { business, accessToken: body.accessToken, refreshToken: body.refreshToken };
}
