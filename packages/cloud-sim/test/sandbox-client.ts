import type { SignUpResult } from '../src/sign-up';

export interface CallOptions {
  method?: string;
  token?: string;
  json?: unknown;
  form?: Record<string, string>;
  /** Raw bytes, sent as they are (the resumable upload). */
  bytes?: Uint8Array;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  // Tests index freely into answers; a wrong shape fails the assertion that reads it.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** One real HTTP call to a running sandbox, answering the parsed JSON body. */
export async function call(baseUrl: string, path: string, options: CallOptions = {}): Promise<CallResult> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | Uint8Array | undefined;
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.bytes !== undefined) {
    body = options.bytes;
  } else if (options.form !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  }
  const response = await fetch(`${baseUrl}${path}`, { method: options.method ?? 'GET', headers, body });
  return { status: response.status, body: await response.json() };
}

export type SignedUp = SignUpResult & { token: string };

/** Creates a WABA through the control API and exchanges its code, as the server's sign-up will. */
export async function signUpWithToken(
  baseUrl: string,
  input: { business_name?: string; phone_number?: string } = {},
): Promise<SignedUp> {
  const created = await call(baseUrl, '/__sandbox/wabas', { method: 'POST', json: input });
  const result = created.body as SignUpResult;
  const query = new URLSearchParams({
    client_id: 'herald-sandbox-app',
    client_secret: 'herald-sandbox-secret',
    code: result.code,
  });
  const exchanged = await call(baseUrl, `/v21.0/oauth/access_token?${query.toString()}`);
  return { ...result, token: exchanged.body.access_token as string };
}
