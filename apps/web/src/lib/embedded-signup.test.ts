import { afterEach, describe, expect, it, vi } from 'vitest';
import { EmbeddedSignupError, loginOptions, readSignupMessage, runEmbeddedSignup } from './embedded-signup';
import type { EmbeddedSignupFailure, FacebookLoginResponse, FacebookSdk } from './embedded-signup';

const TRUSTED = ['https://www.facebook.com', 'https://web.facebook.com'];
const config = { config_id: 'cfg-1', trusted_origins: TRUSTED };

const finish = JSON.stringify({
  type: 'WA_EMBEDDED_SIGNUP',
  event: 'FINISH',
  data: { phone_number_id: '106540352242922', waba_id: '102290129340398', business_id: '77' },
});

function message(data: unknown, origin = 'https://www.facebook.com') {
  return { origin, data };
}

describe('readSignupMessage', () => {
  it('accepts a FINISH from a trusted origin, keeping the data as sent', () => {
    expect(readSignupMessage(message(finish), TRUSTED)).toEqual({
      kind: 'finish',
      accountData: { phone_number_id: '106540352242922', waba_id: '102290129340398', business_id: '77' },
    });
    expect(readSignupMessage(message(finish, 'https://web.facebook.com'), TRUSTED).kind).toBe('finish');
  });

  it.each([
    'https://evilfacebook.com',
    'https://www.facebook.com.evil.example',
    'http://www.facebook.com',
    'https://facebook.com',
    'https://www.facebook.com:8443',
    'null',
    '',
  ])('ignores the same message from the untrusted origin %j', (origin) => {
    expect(readSignupMessage(message(finish, origin), TRUSTED)).toEqual({ kind: 'ignored' });
  });

  it.each([
    ['a non-JSON string', 'cb=f1b2c3&type=resize'],
    ['an object instead of a string', { type: 'WA_EMBEDDED_SIGNUP', event: 'FINISH' }],
    ['JSON null', 'null'],
    ['another message type', JSON.stringify({ type: 'OTHER', event: 'FINISH', data: {} })],
    [
      "the sandbox shim's private login message",
      JSON.stringify({ type: 'HERALD_SANDBOX_LOGIN', session: 's', authResponse: { code: 'c' } }),
    ],
  ])('ignores %s', (_label, data) => {
    expect(readSignupMessage(message(data), TRUSTED)).toEqual({ kind: 'ignored' });
  });

  it('treats CANCEL (with current_step or error_message) and ERROR as failures', () => {
    const cancel = JSON.stringify({
      type: 'WA_EMBEDDED_SIGNUP',
      event: 'CANCEL',
      data: { current_step: 'PHONE' },
    });
    expect(readSignupMessage(message(cancel), TRUSTED)).toEqual({
      kind: 'failed',
      failure: 'signup-cancelled',
      detail: 'PHONE',
    });
    const errored = JSON.stringify({
      type: 'WA_EMBEDDED_SIGNUP',
      event: 'CANCEL',
      data: { error_message: 'Invalid App ID', error_id: '1349159' },
    });
    expect(readSignupMessage(message(errored), TRUSTED)).toMatchObject({ failure: 'signup-cancelled' });
    const error = JSON.stringify({ type: 'WA_EMBEDDED_SIGNUP', event: 'ERROR', data: {} });
    expect(readSignupMessage(message(error), TRUSTED)).toMatchObject({
      kind: 'failed',
      failure: 'signup-cancelled',
    });
  });

  it('reports a FINISH without both ids as missing account information', () => {
    const onlyWaba = JSON.stringify({
      type: 'WA_EMBEDDED_SIGNUP',
      event: 'FINISH_ONLY_WABA',
      data: { waba_id: '1' },
    });
    expect(readSignupMessage(message(onlyWaba), TRUSTED)).toMatchObject({
      kind: 'failed',
      failure: 'missing-ids',
    });
    const blank = JSON.stringify({
      type: 'WA_EMBEDDED_SIGNUP',
      event: 'FINISH',
      data: { waba_id: '', phone_number_id: '2' },
    });
    expect(readSignupMessage(message(blank), TRUSTED)).toMatchObject({ failure: 'missing-ids' });
  });

  it('reports a signup message whose data cannot be read as unparseable', () => {
    const noData = JSON.stringify({ type: 'WA_EMBEDDED_SIGNUP', event: 'FINISH', data: 'oops' });
    expect(readSignupMessage(message(noData), TRUSTED)).toEqual({ kind: 'failed', failure: 'unparseable' });
  });
});

/** A fake SDK whose login callback the test fires by hand. */
function fakeSdk() {
  let callback: ((response: FacebookLoginResponse) => void) | undefined;
  const sdk: FacebookSdk & { options?: Record<string, unknown> } = {
    init: vi.fn(),
    login: vi.fn((cb: (response: FacebookLoginResponse) => void, options: Record<string, unknown>) => {
      callback = cb;
      sdk.options = options;
    }),
  };
  return { sdk, respond: (response: FacebookLoginResponse) => callback?.(response) };
}

function post(data: string, origin = 'https://www.facebook.com') {
  window.dispatchEvent(new MessageEvent('message', { data, origin }));
}

async function failureOf(promise: Promise<unknown>): Promise<EmbeddedSignupFailure> {
  const error: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EmbeddedSignupError);
  return (error as EmbeddedSignupError).failure;
}

describe('runEmbeddedSignup', () => {
  afterEach(() => vi.useRealTimers());

  it('calls FB.login with the Embedded Signup options', () => {
    const { sdk } = fakeSdk();
    void runEmbeddedSignup({ sdk, config }).catch(() => {});
    expect(sdk.options).toEqual(loginOptions('cfg-1'));
    expect(sdk.options).toEqual({
      config_id: 'cfg-1',
      response_type: 'code',
      override_default_response_type: true,
      extras: { setup: {}, featureType: '', sessionInfoVersion: '3', version: 'v4' },
    });
  });

  it('resolves with the code and ids when the FINISH comes first', async () => {
    const { sdk, respond } = fakeSdk();
    const flow = runEmbeddedSignup({ sdk, config });
    post('not json at all');
    post(finish, 'https://evilfacebook.com');
    post(finish);
    respond({ authResponse: { code: 'code-1' } });
    await expect(flow).resolves.toEqual({
      code: 'code-1',
      accountData: { phone_number_id: '106540352242922', waba_id: '102290129340398', business_id: '77' },
    });
  });

  it('resolves when the code comes first', async () => {
    const { sdk, respond } = fakeSdk();
    const flow = runEmbeddedSignup({ sdk, config });
    respond({ authResponse: { code: 'code-2' } });
    post(finish);
    await expect(flow).resolves.toMatchObject({
      code: 'code-2',
      accountData: { waba_id: '102290129340398' },
    });
  });

  it('does not accept ids from an untrusted origin', async () => {
    vi.useFakeTimers();
    const { sdk, respond } = fakeSdk();
    const flow = runEmbeddedSignup({ sdk, config, idsTimeoutMs: 1000 });
    post(finish, 'https://evilfacebook.com');
    respond({ authResponse: { code: 'code-3' } });
    const failure = failureOf(flow);
    vi.advanceTimersByTime(1000);
    expect(await failure).toBe('missing-ids');
  });

  it('fails on CANCEL, once, even when the login callback then reports no session', async () => {
    const { sdk, respond } = fakeSdk();
    const flow = runEmbeddedSignup({ sdk, config });
    post(JSON.stringify({ type: 'WA_EMBEDDED_SIGNUP', event: 'CANCEL', data: { current_step: 'STEP' } }));
    respond({ authResponse: null, status: 'unknown' });
    expect(await failureOf(flow)).toBe('signup-cancelled');
  });

  it('fails when the login is cancelled (no authResponse)', async () => {
    const { sdk, respond } = fakeSdk();
    const flow = runEmbeddedSignup({ sdk, config });
    respond({ authResponse: null });
    expect(await failureOf(flow)).toBe('login-cancelled');
  });

  it('fails when the authResponse has no code', async () => {
    const { sdk, respond } = fakeSdk();
    const flow = runEmbeddedSignup({ sdk, config });
    respond({ authResponse: {} });
    expect(await failureOf(flow)).toBe('missing-code');
  });

  it('fails at once without an SDK', async () => {
    expect(await failureOf(runEmbeddedSignup({ sdk: undefined, config }))).toBe('sdk-missing');
  });

  it('stops listening once settled', async () => {
    const { sdk, respond } = fakeSdk();
    const remove = vi.spyOn(window, 'removeEventListener');
    const flow = runEmbeddedSignup({ sdk, config });
    respond({ authResponse: null });
    await failureOf(flow);
    expect(remove).toHaveBeenCalledWith('message', expect.any(Function));
  });
});
