import type { SignupConfigResponse } from '@herald/contracts';

/**
 * WhatsApp Embedded Signup (Meta's Cloud API documentation), shared by sign-up and "Connect New Account":
 * `FB.login` yields an authorization code, and the provider's popup posts a WA_EMBEDDED_SIGNUP message
 * with the new account's ids. The two arrive in either order; the flow settles once both are in, or at
 * the first failure.
 */

/** Why the flow failed; each screen maps these to its own message. */
export type EmbeddedSignupFailure =
  'sdk-missing' | 'login-cancelled' | 'missing-code' | 'signup-cancelled' | 'missing-ids' | 'unparseable';

export class EmbeddedSignupError extends Error {
  readonly failure: EmbeddedSignupFailure;

  constructor(failure: EmbeddedSignupFailure, detail?: string) {
    super(detail ? `Embedded Signup failed (${failure}): ${detail}` : `Embedded Signup failed (${failure})`);
    this.name = 'EmbeddedSignupError';
    this.failure = failure;
  }
}

/** The FINISH event's data, kept as the provider sent it (`account_data`). */
export type SignupAccountData = {
  waba_id: string;
  phone_number_id: string;
  business_id?: string;
  [key: string]: unknown;
};

export type EmbeddedSignupResult = { code: string; accountData: SignupAccountData };

/** What a `message` event means for the flow. */
export type SignupMessage =
  | { kind: 'ignored' }
  | { kind: 'finish'; accountData: SignupAccountData }
  | { kind: 'failed'; failure: EmbeddedSignupFailure; detail?: string };

const IGNORED: SignupMessage = { kind: 'ignored' };

function nonEmptyId(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/**
 * Reads one `message` event. Only events whose origin is exactly one of `trustedOrigins` count (a suffix
 * check would also admit e.g. evilfacebook.com); non-string data, non-JSON strings and other message
 * types (the SDK's own traffic, the sandbox shim's HERALD_SANDBOX_LOGIN) are ignored.
 */
export function readSignupMessage(
  event: Pick<MessageEvent, 'origin' | 'data'>,
  trustedOrigins: readonly string[],
): SignupMessage {
  if (!trustedOrigins.includes(event.origin) || typeof event.data !== 'string') return IGNORED;
  let message: unknown;
  try {
    message = JSON.parse(event.data);
  } catch {
    return IGNORED;
  }
  if (typeof message !== 'object' || message === null) return IGNORED;
  const { type, event: name, data } = message as { type?: unknown; event?: unknown; data?: unknown };
  if (type !== 'WA_EMBEDDED_SIGNUP') return IGNORED;
  if (typeof name !== 'string' || typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { kind: 'failed', failure: 'unparseable' };
  }
  const fields = data as Record<string, unknown>;

  if (name === 'CANCEL' || name === 'ERROR') {
    const detail = nonEmptyId(fields.error_message) ?? nonEmptyId(fields.current_step) ?? undefined;
    return { kind: 'failed', failure: 'signup-cancelled', detail };
  }
  if (name.startsWith('FINISH')) {
    const wabaId = nonEmptyId(fields.waba_id);
    const phoneNumberId = nonEmptyId(fields.phone_number_id);
    if (!wabaId || !phoneNumberId) return { kind: 'failed', failure: 'missing-ids', detail: name };
    return { kind: 'finish', accountData: { ...fields, waba_id: wabaId, phone_number_id: phoneNumberId } };
  }
  return IGNORED;
}

/** The part of the provider's JS SDK the flow uses. */
export type FacebookLoginResponse = { authResponse?: { code?: unknown } | null; status?: string };

export type FacebookSdk = {
  init(options: { appId: string; autoLogAppEvents: boolean; xfbml: boolean; version: string }): void;
  login(callback: (response: FacebookLoginResponse) => void, options: Record<string, unknown>): void;
};

/**
 * `FB.login` options for Embedded Signup (Meta's Cloud API documentation). `version: 'v4'` asks for Meta's
 * current flow: a launch without it is v2, which (with v3) ended in October 2026 (decision 024).
 */
export function loginOptions(configId: string): Record<string, unknown> {
  return {
    config_id: configId,
    response_type: 'code',
    override_default_response_type: true,
    extras: { setup: {}, featureType: '', sessionInfoVersion: '3', version: 'v4' },
  };
}

/** After the code arrives, how long to wait for the account ids before giving up. */
export const ACCOUNT_IDS_TIMEOUT_MS = 15_000;

type EventSource = Pick<Window, 'addEventListener' | 'removeEventListener'>;

export type RunEmbeddedSignupOptions = {
  sdk: FacebookSdk | undefined;
  config: Pick<SignupConfigResponse, 'config_id' | 'trusted_origins'>;
  /** Where the provider's messages arrive; the window in the app. */
  target?: EventSource;
  idsTimeoutMs?: number;
};

/** Runs one Embedded Signup: resolves with the code and the account ids, or rejects with EmbeddedSignupError. */
export function runEmbeddedSignup({
  sdk,
  config,
  target = window,
  idsTimeoutMs = ACCOUNT_IDS_TIMEOUT_MS,
}: RunEmbeddedSignupOptions): Promise<EmbeddedSignupResult> {
  if (!sdk) return Promise.reject(new EmbeddedSignupError('sdk-missing'));

  return new Promise<EmbeddedSignupResult>((resolve, reject) => {
    let code: string | null = null;
    let accountData: SignupAccountData | null = null;
    let settled = false;
    let idsTimer: ReturnType<typeof setTimeout> | undefined;

    function cleanUp() {
      settled = true;
      target.removeEventListener('message', onMessage);
      clearTimeout(idsTimer);
    }

    function fail(failure: EmbeddedSignupFailure, detail?: string) {
      if (settled) return;
      cleanUp();
      reject(new EmbeddedSignupError(failure, detail));
    }

    function completeIfReady() {
      if (settled || code === null || accountData === null) return;
      cleanUp();
      resolve({ code, accountData });
    }

    function onMessage(event: Event) {
      if (settled) return;
      const message = readSignupMessage(event as MessageEvent, config.trusted_origins);
      if (message.kind === 'ignored') return;
      if (message.kind === 'failed') return fail(message.failure, message.detail);
      accountData = message.accountData;
      completeIfReady();
    }

    target.addEventListener('message', onMessage);
    try {
      sdk.login((response) => {
        if (settled) return;
        if (!response?.authResponse) return fail('login-cancelled');
        const received = response.authResponse.code;
        if (typeof received !== 'string' || received === '') return fail('missing-code');
        code = received;
        if (accountData === null) idsTimer = setTimeout(() => fail('missing-ids', 'timed out'), idsTimeoutMs);
        completeIfReady();
      }, loginOptions(config.config_id));
    } catch (error) {
      fail('sdk-missing', error instanceof Error ? error.message : String(error));
    }
  });
}
