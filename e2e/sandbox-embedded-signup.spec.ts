import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from '@herald/cloud-sim';
import type { RunningSandbox } from '@herald/cloud-sim';
import { launchBrowser } from './support/browser';

// Runs the sandbox's Embedded Signup shim in a real browser, from an opener page on another origin,
// the way Herald's web app will use it.

interface OpenerWindow {
  messages: { origin: string; data: unknown }[];
  loginResult?: { authResponse: { code: string } | null; status: string };
}

let sandbox: RunningSandbox;
let opener: Server;
let openerUrl: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;

function openerPage(sandboxUrl: string): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>Opener</title></head>
<body>
<button id="connect">Connect WhatsApp</button>
<script>
  window.messages = [];
  window.addEventListener('message', function (event) {
    window.messages.push({ origin: event.origin, data: event.data });
  });
  window.fbAsyncInit = function () {
    FB.init({ appId: 'herald-sandbox-app', autoLogAppEvents: true, xfbml: true, version: 'v25.0' });
  };
  document.getElementById('connect').addEventListener('click', function () {
    FB.login(function (response) { window.loginResult = response; }, {
      config_id: 'sandbox-config',
      response_type: 'code',
      override_default_response_type: true,
      extras: { setup: {}, featureType: '', sessionInfoVersion: '3', version: 'v4' }
    });
  });
</script>
<script async defer crossorigin="anonymous" src="${sandboxUrl}/sdk.js"></script>
</body></html>`;
}

async function sandboxState() {
  return (await (await fetch(`${sandbox.url}/__sandbox/state`)).json()) as {
    wabas: { id: string; name: string }[];
    phone_numbers: { id: string; waba_id: string; digits: string }[];
  };
}

function exchange(code: string) {
  const query = new URLSearchParams({
    client_id: 'herald-sandbox-app',
    client_secret: 'herald-sandbox-secret',
    code,
  });
  return fetch(`${sandbox.url}/v21.0/oauth/access_token?${query.toString()}`);
}

async function openPopup(): Promise<Page> {
  const [popup] = await Promise.all([context.waitForEvent('page'), page.click('#connect')]);
  await popup.waitForLoadState('domcontentloaded');
  return popup;
}

async function loginResult() {
  await page.waitForFunction(() => (window as unknown as OpenerWindow).loginResult !== undefined);
  return page.evaluate(() => (window as unknown as OpenerWindow).loginResult);
}

async function signupMessages() {
  const messages = await page.evaluate(() => (window as unknown as OpenerWindow).messages);
  return messages
    .filter((m) => typeof m.data === 'string' && m.data.includes('WA_EMBEDDED_SIGNUP'))
    .map((m) => ({ origin: m.origin, raw: m.data as string }));
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  opener = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(openerPage(sandbox.url));
  });
  await new Promise<void>((done) => opener.listen(0, '127.0.0.1', done));
  // "localhost" keeps the opener on another origin than the sandbox (127.0.0.1), as in real use.
  openerUrl = `http://localhost:${(opener.address() as AddressInfo).port}/`;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await new Promise((done) => opener?.close(done));
  await sandbox?.close();
});

beforeEach(async () => {
  context = await browser.newContext();
  page = await context.newPage();
  page.setDefaultTimeout(10_000);
  await page.goto(openerUrl);
  await page.waitForFunction(() => typeof (window as unknown as { FB?: unknown }).FB === 'object');
});

afterEach(async () => {
  await context.close();
});

describe('sandbox Embedded Signup', () => {
  it('finishes: posts FINISH as a JSON string, hands a one-time code to FB.login', async () => {
    const popup = await openPopup();
    await popup.getByLabel('Business name').fill('Herald Test Bakery');
    await popup.getByLabel('Phone number').fill('+1 415 555 0199');
    await popup.getByRole('button', { name: 'Continue' }).click();

    const result = await loginResult();
    expect(result?.status).toBe('connected');
    const code = result?.authResponse?.code;
    expect(code).toMatch(/^AQ/);

    const messages = await signupMessages();
    expect(messages).toHaveLength(1);
    const [message] = messages;
    expect(message?.origin).toBe(sandbox.url);
    const parsed = JSON.parse(message?.raw ?? 'null') as {
      type: string;
      event: string;
      data: { phone_number_id: string; waba_id: string; business_id: string };
    };
    expect(parsed).toMatchObject({ type: 'WA_EMBEDDED_SIGNUP', event: 'FINISH' });
    expect(parsed.data.waba_id).toMatch(/^\d{15}$/);
    expect(parsed.data.business_id).toMatch(/^\d{15}$/);

    const state = await sandboxState();
    expect(state.wabas).toContainEqual(
      expect.objectContaining({ id: parsed.data.waba_id, name: 'Herald Test Bakery' }),
    );
    expect(state.phone_numbers).toContainEqual(
      expect.objectContaining({
        id: parsed.data.phone_number_id,
        waba_id: parsed.data.waba_id,
        digits: '14155550199',
      }),
    );

    const first = await exchange(code ?? '');
    expect(first.status).toBe(200);
    const { access_token: token } = (await first.json()) as { access_token: string };
    expect(token).toMatch(/^EAA/);
    const numbers = await fetch(`${sandbox.url}/v21.0/${parsed.data.waba_id}/phone_numbers`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(((await numbers.json()) as { data: { id: string }[] }).data[0]?.id).toBe(
      parsed.data.phone_number_id,
    );

    const second = await exchange(code ?? '');
    expect(second.status).toBe(400);
    expect(((await second.json()) as { error: { error_subcode: number } }).error.error_subcode).toBe(36009);
    // The popup closes itself after FINISH, sometimes before this line: a page already closed sends no more
    // 'close' events, so wait only while it is open (checked and waited for in one tick, so none is missed).
    if (!popup.isClosed()) await popup.waitForEvent('close');
  });

  it('fills the form from a sample business', async () => {
    const popup = await openPopup();
    await popup.getByRole('button', { name: 'Lucky Shrub' }).click();
    await expect(popup.getByLabel('Business name').inputValue()).resolves.toBe('Lucky Shrub');
    await expect(popup.getByLabel('Phone number').inputValue()).resolves.toBe('+44 7700 900123');
    await popup.getByRole('button', { name: 'Continue' }).click();
    expect((await loginResult())?.authResponse?.code).toMatch(/^AQ/);
  });

  it('shows a bad phone number in the popup and lets the user correct it', async () => {
    const popup = await openPopup();
    await popup.getByLabel('Business name').fill('Typo Inc');
    await popup.getByLabel('Phone number').fill('12');
    await popup.getByRole('button', { name: 'Continue' }).click();
    await popup.waitForFunction(() =>
      document.getElementById('error')?.textContent?.includes('phone_number'),
    );
    expect(await signupMessages()).toEqual([]);
    await popup.getByLabel('Phone number').fill('+1 631 555 0100');
    await popup.getByRole('button', { name: 'Continue' }).click();
    expect((await loginResult())?.status).toBe('connected');
  });

  it('cancels: posts CANCEL with the step and calls back without an authResponse', async () => {
    const before = await sandboxState();
    const popup = await openPopup();
    await popup.getByRole('button', { name: 'Cancel' }).click();

    expect(await loginResult()).toEqual({ authResponse: null, status: 'unknown' });
    const messages = await signupMessages();
    expect(messages).toHaveLength(1);
    expect(JSON.parse(messages[0]?.raw ?? 'null')).toEqual({
      type: 'WA_EMBEDDED_SIGNUP',
      event: 'CANCEL',
      data: { current_step: 'PHONE_NUMBER_SETUP' },
    });
    expect((await sandboxState()).wabas).toHaveLength(before.wabas.length);
  });

  it('calls back without an authResponse when the popup is just closed', async () => {
    const popup = await openPopup();
    await popup.close();
    expect(await loginResult()).toEqual({ authResponse: null, status: 'unknown' });
    expect(await signupMessages()).toEqual([]);
  });
});
