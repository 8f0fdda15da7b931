import { listenForWebhooks, type TestApp } from './test-app';

// The one way tests, e2e specs and benches make a business: it finishes Embedded Signup at the sandbox, signs
// up and in through Herald's API, then adds contacts (a CSV import), approved templates and broadcasts through
// the same API the web uses. The same calls work on an in-process test app (requests by inject) and on a
// running stack or API process (requests over HTTP), with the same options and defaults.

/** An in-process app (a test app, or a bench's own), or anything listening over HTTP (an e2e stack, a bench's API). */
export type BusinessTarget = Pick<TestApp, 'app' | 'sandboxUrl'> | { url: string; sandboxUrl: string };

export interface SandboxBusiness {
  waba_id: string;
  phone_number_id: string;
  business_id: string;
  code: string;
}

/** A request's answer, whichever way it went. */
export interface Answer {
  status: number;
  body: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each caller reads the fields it names
  json(): any;
}

export const DEFAULT_EMAIL = 'owner@acme.test';
export const DEFAULT_PASSWORD = 'correct horse';
export const DEFAULT_BUSINESS_NAME = 'Acme Shop';

/** The template a business gets when a test names none: one body variable filled from the contact's name. */
export const DEFAULT_TEMPLATE = {
  name: 'hello',
  language: 'en_US',
  category: 'UTILITY',
  components: [{ type: 'BODY', text: 'Hi {{1}}.' }],
  dynamic_variables: { body_variable: { '1': 'name' } },
};

/** One request to Herald's API: by inject on a test app, by fetch on anything listening. */
export async function callApi(
  target: BusinessTarget,
  method: string,
  url: string,
  options: { headers?: Record<string, string>; json?: unknown; body?: string; remoteAddress?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  let payload: string | undefined = options.body;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(options.json);
  }
  if ('app' in target) {
    const response = await target.app.inject({
      method: method as 'GET',
      url,
      headers,
      ...(payload === undefined ? {} : { payload }),
      ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
    });
    return { status: response.statusCode, body: response.body, json: () => response.json() };
  }
  const response = await fetch(`${target.url}${url}`, { method, headers, body: payload });
  const body = await response.text();
  return { status: response.status, body, json: () => JSON.parse(body) };
}

/** A business that finished Embedded Signup at the sandbox: its ids and a fresh one-time code. */
export async function sandboxBusiness(
  sandboxUrl: string,
  name = DEFAULT_BUSINESS_NAME,
  /** Extra fields of the sandbox's control call (e.g. `mm_api_terms: false`). */
  fields: Record<string, unknown> = {},
): Promise<SandboxBusiness> {
  const response = await fetch(`${sandboxUrl}/__sandbox/wabas`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ business_name: name, ...fields }),
  });
  if (response.status !== 201) throw new Error(`sandbox answered ${response.status}`);
  return (await response.json()) as SandboxBusiness;
}

/** The sign-up body the Embedded Signup page posts after the popup; `fields` adds to or replaces its parts. */
export function signUpPayload(business: SandboxBusiness, fields: Record<string, unknown> = {}) {
  return {
    code: business.code,
    waba_id: business.waba_id,
    phone_number_id: business.phone_number_id,
    account_data: { waba_id: business.waba_id, phone_number_id: business.phone_number_id },
    email: DEFAULT_EMAIL,
    password: DEFAULT_PASSWORD,
    ...fields,
  };
}

/** Signs up a business that finished Embedded Signup at the sandbox; throws unless Herald said 200. */
export async function signUpSandboxBusiness(
  target: BusinessTarget,
  business: SandboxBusiness,
  email = DEFAULT_EMAIL,
  password = DEFAULT_PASSWORD,
): Promise<void> {
  const response = await callApi(target, 'POST', '/api/auth/facebook/callback/', {
    json: signUpPayload(business, { email, password }),
  });
  if (response.status !== 200) throw new Error(`sign-up failed: ${response.status} ${response.body}`);
}

/** Signs a new business up (a fresh sandbox WABA) and answers its sandbox ids; throws unless Herald said 200. */
export async function signUpViaApi(
  target: BusinessTarget,
  email = DEFAULT_EMAIL,
  password = DEFAULT_PASSWORD,
  businessName = DEFAULT_BUSINESS_NAME,
): Promise<SandboxBusiness> {
  const business = await sandboxBusiness(target.sandboxUrl, businessName);
  await signUpSandboxBusiness(target, business, email, password);
  return business;
}

/** What the login answers: both tokens, and the rest the web keeps of it (the user's businesses). */
export type Session = { accessToken: string; refreshToken: string } & Record<string, unknown>;

/** Signs in with a username and password; answers the session. */
export async function logIn(target: BusinessTarget, email: string, password: string): Promise<Session> {
  const response = await callApi(target, 'POST', '/api/auth/login/', {
    json: { username: email, password },
    remoteAddress: '127.0.0.1',
  });
  if (response.status !== 200) throw new Error(`login failed: ${response.status}`);
  return response.json() as Session;
}

/** Signs in and answers the access token alone. */
export async function apiLogin(target: BusinessTarget, email: string, password: string): Promise<string> {
  return (await logIn(target, email, password)).accessToken;
}

/** A token alone sends the bearer header (the API picks the user's business); headers are sent as given. */
function authHeaders(auth: string | Record<string, string>): Record<string, string> {
  return typeof auth === 'string' ? { authorization: `Bearer ${auth}` } : auth;
}

/** Imports a CSV under a tag, as the Contacts page uploads it; throws unless Herald said 201. */
export async function importContacts(
  target: BusinessTarget,
  auth: string | Record<string, string>,
  csv: string,
  tag: string,
): Promise<unknown> {
  const boundary = `----herald-business-${Math.random().toString(16).slice(2)}`;
  const body =
    `--${boundary}\r\ncontent-disposition: form-data; name="tag"\r\n\r\n${tag}\r\n` +
    `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="contacts.csv"\r\n` +
    `content-type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`;
  const response = await callApi(target, 'POST', '/recipient/import/', {
    headers: { ...authHeaders(auth), 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
  });
  if (response.status !== 201) throw new Error(`import failed: ${response.status} ${response.body}`);
  return response.json();
}

/**
 * Creates a template and waits until the sandbox's review webhook has approved it. On a test app the sandbox
 * needs somewhere to post that webhook: an app that does not listen yet is made to (listenForWebhooks); one that
 * does is taken to have pointed the sandbox where the test wants it.
 */
export async function createApprovedTemplate(
  target: BusinessTarget,
  auth: string | Record<string, string>,
  payload: object,
  timeoutMs = 20_000,
): Promise<number> {
  if ('app' in target && !target.app.server.listening) await listenForWebhooks(target);
  const headers = authHeaders(auth);
  const created = await callApi(target, 'POST', '/meta/templates/', { headers, json: payload });
  if (created.status !== 201) throw new Error(`template failed: ${created.status} ${created.body}`);
  const { id } = created.json() as { id: number };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ('app' in target) await target.app.webhooks.idle();
    const detail = await callApi(target, 'GET', `/meta/templates/${id}/`, { headers });
    if ((detail.json() as { status: string }).status === 'APPROVED') return id;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the template was not approved in time');
}

/** Creates a broadcast; throws unless Herald said 201. Answers its id. */
export async function createBroadcast(
  target: BusinessTarget,
  auth: string | Record<string, string>,
  payload: object,
): Promise<number> {
  const response = await callApi(target, 'POST', '/broadcast/create/', {
    headers: authHeaders(auth),
    json: payload,
  });
  if (response.status !== 201) throw new Error(`broadcast failed: ${response.status} ${response.body}`);
  return (response.json() as { id: number }).id;
}

/**
 * Sets the account's frequency cap (null: none). A test that sends several marketing broadcasts to the same
 * people, about something else, states it so: the cap has tests of its own (frequency-cap.int.test.ts).
 */
export async function setFrequencyCap(
  target: BusinessTarget,
  auth: string | Record<string, string>,
  messages: number | null,
  days = 7,
): Promise<void> {
  const response = await callApi(target, 'PUT', '/settings/', {
    headers: authHeaders(auth),
    json: { frequency_cap_messages: messages, frequency_cap_days: days },
  });
  if (response.status !== 200) throw new Error(`settings failed: ${response.status} ${response.body}`);
}

export interface BusinessOptions {
  email?: string;
  password?: string;
  businessName?: string;
  /** Contacts to import: a count (generatedContacts) or name/number rows. */
  contacts?: number | Array<{ name: string; number: string }>;
  /** The tag the contacts are imported under. */
  tag?: string;
  /** Templates to create and wait approved: payloads, each over DEFAULT_TEMPLATE (a name at least). */
  templates?: Array<Record<string, unknown>>;
  /** Broadcasts to create, of the first template unless `template_id` is given, to everyone unless `recipients`. */
  broadcasts?: Array<Record<string, unknown>>;
}

export interface Business {
  business: SandboxBusiness;
  email: string;
  password: string;
  accessToken: string;
  refreshToken: string;
  /** All the login answered. */
  session: Session;
  /** What every business-scoped call sends: the bearer token and the WABA it acts on. */
  headers: Record<string, string>;
  templateIds: number[];
  broadcastIds: number[];
}

/** The contacts makeBusiness generates for a count: Person 1… on US numbers from +1 628 555 0001 up. */
export function generatedContacts(count: number): Array<{ name: string; number: string }> {
  return Array.from({ length: count }, (_, i) => ({
    name: `Person ${i + 1}`,
    number: `+1628${5_550_001 + i}`,
  }));
}

/** A new business signed up and in, with the contacts, approved templates and broadcasts asked for. */
export async function makeBusiness(target: BusinessTarget, options: BusinessOptions = {}): Promise<Business> {
  const email = options.email ?? DEFAULT_EMAIL;
  const password = options.password ?? DEFAULT_PASSWORD;
  const business = await signUpViaApi(target, email, password, options.businessName ?? DEFAULT_BUSINESS_NAME);
  const session = await logIn(target, email, password);
  const { accessToken, refreshToken } = session;
  const headers = { authorization: `Bearer ${accessToken}`, 'x-waba-id': business.waba_id };
  const contacts =
    typeof options.contacts === 'number' ? generatedContacts(options.contacts) : (options.contacts ?? []);
  if (contacts.length > 0) {
    const rows = contacts.map((contact) => `${contact.name},${contact.number}`).join('\n');
    await importContacts(target, headers, `name,number\n${rows}\n`, options.tag ?? 'customers');
  }
  const templateIds: number[] = [];
  for (const template of options.templates ?? [])
    templateIds.push(await createApprovedTemplate(target, headers, { ...DEFAULT_TEMPLATE, ...template }));
  const broadcastIds: number[] = [];
  for (const broadcast of options.broadcasts ?? [])
    broadcastIds.push(
      await createBroadcast(target, headers, {
        template_id: templateIds[0],
        recipients: { type: 'all', percentage: 100 },
        ...broadcast,
      }),
    );
  return {
    business,
    email,
    password,
    accessToken,
    refreshToken,
    session,
    headers,
    templateIds,
    broadcastIds,
  };
}
