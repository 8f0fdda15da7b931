import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, SCREENSHOT_DIR } from './support/browser';
import { sharedStack } from './support/shared-stack';
import type { StackView } from './support/stack';

// One user's whole account journey in real Chromium against `npm start` (embedded Postgres, sandbox).
let stack: StackView;
let browser: Browser;
let context: BrowserContext;
let page: Page;

const EMAIL = 'owner@bakery.test';
const PASSWORD = 'correct horse battery';
const PIN = '135790';

beforeAll(async () => {
  stack = await sharedStack();
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.url });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
  // What the browser saw go wrong, printed when a test fails so a failure explains itself.
  page.on('console', (message) => {
    if (message.type() === 'error') browserLog.push(`console: ${message.text()}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400)
      browserLog.push(`${response.status()} ${response.request().method()} ${response.url()}`);
  });
});

const browserLog: string[] = [];
afterEach((context) => {
  if (context.task.result?.state === 'fail') console.log(`browser log:\n${browserLog.join('\n')}`);
});

afterAll(async () => {
  await browser?.close();
});

/** Finishes the sandbox's Embedded Signup popup that the click opens. */
async function finishEmbeddedSignup(click: () => Promise<void>, businessName: string, phone: string) {
  const [popup] = await Promise.all([context.waitForEvent('page'), click()]);
  await popup.getByLabel('Business name').fill(businessName);
  await popup.getByLabel('Phone number').fill(phone);
  await popup.getByRole('button', { name: 'Continue' }).click();
}

async function signIn(email: string, password: string) {
  await page.getByLabel('Username').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('accounts and sign-in', () => {
  it('signs up through the Embedded Signup popup and shows the PIN', async () => {
    await page.goto(`${stack.url}/signup`);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('switch').check();
    await page.getByLabel('PIN').fill(PIN);
    await page.locator('input[name="terms"]').check();
    await finishEmbeddedSignup(
      () => page.getByRole('button', { name: 'Sign up with Facebook' }).click(),
      'Herald Bakery',
      '+1 415 555 0101',
    );
    await page.waitForURL(`${stack.url}/pin`);
    await page.getByRole('heading', { name: 'PIN Created Successfully' }).waitFor();
    for (const digit of PIN) expect(await page.getByText(digit, { exact: true }).count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Copied').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(PIN);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/pin.png` });
    await page
      .getByRole('button', { name: 'Continue to Sign In' })
      .or(page.getByRole('link', { name: 'Continue to Sign In' }))
      .click();
    await page.waitForURL(`${stack.url}/`);
  });

  it('shows the server’s detail on a wrong password, then returns to the attempted page', async () => {
    await page.goto(`${stack.url}/customers`);
    await page.waitForURL(`${stack.url}/`);
    await signIn(EMAIL, 'not the password');
    await page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor();
    // Said once, inline: no toast repeats it.
    expect(await page.getByText('Invalid email or password').count()).toBe(1);
    await signIn(EMAIL, PASSWORD);
    await page.waitForURL(`${stack.url}/customers`);
  });

  it('lists the account’s numbers from the Cloud API', async () => {
    // A full reload: the session must have been saved by sign-in.
    await page.goto(`${stack.url}/number`);
    await page.getByRole('cell', { name: 'Herald Bakery' }).waitFor();
    expect(await page.getByRole('cell', { name: '+1 415-555-0101' }).count()).toBe(1);
  });

  it('connects a second account in Settings and switches to it', async () => {
    await page.goto(`${stack.url}/settings`);
    await page.getByRole('tab', { name: 'WhatsApp Accounts' }).click();
    await page.getByText('WhatsApp Business Accounts').first().waitFor();
    await finishEmbeddedSignup(
      () => page.getByRole('button', { name: 'Connect New Account' }).click(),
      'Herald Deli',
      '+1 415 555 0102',
    );
    await page.getByText('WhatsApp account connected successfully!').first().waitFor();
    await page.locator('main').getByText('Herald Deli').first().waitFor();
    await page.screenshot({ path: `${SCREENSHOT_DIR}/settings-accounts.png` });

    const selector = page.getByRole('combobox', { name: /account/i });
    const options = await selector.locator('option').allTextContents();
    expect(options).toEqual(expect.arrayContaining(['Herald Bakery', 'Herald Deli']));

    await page.goto(`${stack.url}/number`);
    await page.getByRole('cell', { name: 'Herald Bakery' }).waitFor();
    const sentHeaders: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/meta/phone/whatsapp/'))
        sentHeaders.push(request.headers()['x-waba-id'] ?? '');
    });
    await Promise.all([page.waitForEvent('load'), selector.selectOption({ label: 'Herald Deli' })]);
    // The server answered with the second account's numbers: it acted on the X-WABA-ID it received.
    await page.getByRole('cell', { name: 'Herald Deli' }).waitFor();
    expect(await page.getByRole('cell', { name: 'Herald Bakery' }).count()).toBe(0);
    expect(sentHeaders.at(-1)).toMatch(/^\d{15}$/);
  });

  it('logs out, and protected pages redirect again', async () => {
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${stack.url}/`);
    await page.goto(`${stack.url}/dashboard`);
    await page.waitForURL(`${stack.url}/`);
    expect(await page.evaluate(() => localStorage.getItem('persist:auth'))).not.toContain('ey');
  });

  it('sets a new password with the PIN on /forgot-password, which then signs in', async () => {
    await page.goto(`${stack.url}/`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL(`${stack.url}/forgot-password`);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('PIN').fill(PIN);
    await page.getByLabel('New password').fill('a brand new secret');
    await page.getByRole('button', { name: /reset|set|update/i }).click();
    await page
      .getByText(/password has been updated/i)
      .first()
      .waitFor();
    await page.goto(`${stack.url}/`);
    await signIn(EMAIL, PASSWORD);
    await page.getByText('Invalid email or password').first().waitFor();
    await signIn(EMAIL, 'a brand new secret');
    await page.waitForURL(`${stack.url}/dashboard`);
    // Nothing secret is left in browser storage.
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
    expect(stored).not.toContain('a brand new secret');
    expect(stored).not.toContain(PASSWORD);
  });
});
