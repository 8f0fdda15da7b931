import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, SCREENSHOT_DIR } from './support/browser';
import { sharedStack } from './support/shared-stack';
import type { StackView } from './support/stack';

let stack: StackView;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  stack = await sharedStack();
  browser = await launchBrowser();
  page = await browser.newPage();
});

afterAll(async () => {
  await browser?.close();
});

const PUBLIC_ROUTES: Array<[string, string]> = [
  ['/', 'Sign in'],
  ['/signup', 'Create your account'],
  ['/pin', 'PIN not available'],
  ['/forgot-password', 'Forgot password'],
  ['/terms', 'Terms of Service'],
  ['/privacy', 'Privacy Policy'],
];

describe('app shell in Chromium', () => {
  it('sends a signed-out visitor of /customers to the sign-in page', async () => {
    await page.goto(`${stack.url}/customers`);
    await page.waitForURL(`${stack.url}/`);
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.getByRole('heading', { level: 1 }).first().textContent()).toBe('Sign in');
  });

  it.each(PUBLIC_ROUTES)('renders the public route %s', async (route, heading) => {
    await page.goto(`${stack.url}${route}`);
    const h1 = page.getByRole('heading', { level: 1 }).first();
    await h1.waitFor();
    expect(await h1.textContent()).toBe(heading);
    expect(new URL(page.url()).pathname).toBe(route);
  });

  it('shows the PIN error panel without a PIN in the navigation state', async () => {
    await page.goto(`${stack.url}/pin`);
    await page.getByText('PIN number not found. Please try signing up again.').waitFor();
    await page.getByRole('link', { name: 'Return to Sign Up' }).click();
    await page.waitForURL(`${stack.url}/signup`);
  });

  it('saves a screenshot of the sign-in page', async () => {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${stack.url}/`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    const file = `${SCREENSHOT_DIR}/sign-in.png`;
    const png = await page.screenshot({ path: file, fullPage: true });
    expect(png.byteLength).toBeGreaterThan(5_000);
  });
});
