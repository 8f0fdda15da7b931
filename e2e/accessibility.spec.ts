import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './support/axe';
import { launchBrowser, SCREENSHOT_DIR } from './support/browser';
import { signInViaUi } from './support/session';
import { sharedStack } from './support/shared-stack';
import type { StackView } from './support/stack';
import { apiLogin, createApprovedTemplate, importContacts, signUpViaApi } from '../test-support/business';

/**
 * axe-core on every screen and dialog, signed out and signed in, at desktop and phone sizes, with no
 * serious or critical violation; at 390 px nothing overflows the page sideways. Screenshots of every screen at
 * 390 px land in test-results/screenshots/phone-*.png, and in the dark theme phone-dark-*.png.
 */
const EMAIL = 'a11y@herald.test';
const PASSWORD = 'Accessible pass 1';
const SIZES = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

let stack: StackView;
let browser: Browser;
let reportPath = '';

/** Nothing wider than the viewport: the page never scrolls sideways. */
async function overflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/** Waits for the screen to be drawn (lazy screens show a loading state first); answers a problem or null. */
async function settled(page: Page): Promise<string | null> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page
    .getByText('Loading…')
    .first()
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => undefined);
  const heading = page.getByRole('heading', { level: 1 }).first();
  return (await heading
    .waitFor({ timeout: 10_000 })
    .then(() => true)
    .catch(() => false))
    ? null
    : 'no level-1 heading';
}

/** A screen's file name: its path with the report's id as 'report' ('/' is the sign-in screen). */
const screenName = (route: string) =>
  route === '/' ? 'sign-in' : route.slice(1).replace(/\//g, '-').replace(/\d+/, 'report');

/**
 * Opens a screen and notes in `found` what is wrong with it (not drawn, axe's serious violations, a sideways
 * scroll), then takes its full-page screenshot under `screenshot` when given.
 */
async function checkScreen(page: Page, route: string, found: string[], screenshot?: string): Promise<void> {
  await page.goto(`${stack.url}${route}`);
  const problem = await settled(page);
  if (problem) found.push(`${route}: ${problem}`);
  for (const line of await seriousViolations(page)) found.push(`${route}: ${line}`);
  const wider = await overflow(page);
  if (wider > 0) found.push(`${route}: ${wider}px wider than the viewport`);
  if (screenshot) await page.screenshot({ path: `${SCREENSHOT_DIR}/${screenshot}.png`, fullPage: true });
}

beforeAll(async () => {
  stack = await sharedStack();
  browser = await launchBrowser();
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await signUpViaApi(stack, EMAIL, PASSWORD, 'Accessible Bakery');
  const token = await apiLogin(stack, EMAIL, PASSWORD);
  await importContacts(
    stack,
    token,
    'name,whatsapp_number\nAda Lovelace,+447911123401\nAlan Turing,+447911123402\nGrace Hopper,+447911123403\n',
    'regulars',
  );
  const templateId = await createApprovedTemplate(stack, token, {
    name: 'accessible_welcome',
    language: 'en_US',
    category: 'UTILITY',
    components: [{ type: 'BODY', text: 'Hello {{1}}, your order is ready.' }],
    dynamic_variables: { body_variable: { '1': 'name' } },
  });
  const created = await fetch(`${stack.url}/broadcast/create/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Accessible launch',
      template_id: templateId,
      recipients: { type: 'all', percentage: 100 },
    }),
  });
  if (created.status !== 201) throw new Error(`broadcast failed: ${await created.text()}`);
  reportPath = `/broadcast/${((await created.json()) as { id: number }).id}`;
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

const SIGNED_OUT = ['/', '/signup', '/forgot-password', '/terms', '/privacy', '/pin'];
const SIGNED_IN = () => [
  '/dashboard',
  '/customers',
  '/template',
  '/template/create-template',
  '/broadcast',
  '/broadcast/new',
  reportPath,
  '/number',
  '/settings',
];

describe.each(SIZES)('accessibility at $name size ($width px)', (size) => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await browser.newContext({
      viewport: { width: size.width, height: size.height },
      // axe is injected as an inline script, which Herald's CSP rightly refuses.
      bypassCSP: true,
    });
    page = await context.newPage();
  });
  afterAll(async () => context?.close());

  it('signed out: every screen has no serious violation and no sideways scroll', async () => {
    const found: string[] = [];
    for (const route of SIGNED_OUT) {
      await checkScreen(page, route, found, size.name === 'phone' ? `phone-${screenName(route)}` : undefined);
    }
    expect(found).toEqual([]);
  }, 120_000);

  it('signed in: every screen has no serious violation and no sideways scroll', async () => {
    await signInViaUi(page, stack, EMAIL, PASSWORD);
    const found: string[] = [];
    for (const route of SIGNED_IN()) {
      await checkScreen(page, route, found, size.name === 'phone' ? `phone-${screenName(route)}` : undefined);
    }
    expect(found).toEqual([]);
  }, 180_000);

  it('dialogs: add contact, import contacts and the navigation menu have no serious violation', async () => {
    const found: string[] = [];
    await page.goto(`${stack.url}/customers`);
    expect(await settled(page)).toBeNull();
    for (const opener of ['Add New Contact', 'Import Contacts']) {
      await page.getByRole('button', { name: opener, exact: true }).first().click();
      await page.getByRole('dialog').waitFor();
      for (const line of await seriousViolations(page)) found.push(`${opener} dialog: ${line}`);
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
    }
    if (size.name === 'phone') {
      await page.getByRole('button', { name: 'Open navigation' }).first().click();
      for (const line of await seriousViolations(page)) found.push(`navigation menu: ${line}`);
      await page.keyboard.press('Escape');
    }
    expect(found).toEqual([]);
  }, 120_000);
});

describe('accessibility in the dark theme at phone size (390 px)', () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await browser.newContext({ viewport: { width: 390, height: 844 }, bypassCSP: true });
    page = await context.newPage();
    const token = await apiLogin(stack, EMAIL, PASSWORD);
    const saved = await fetch(`${stack.url}/settings/`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ dark_theme: true }),
    });
    if (saved.status !== 200) throw new Error(`settings failed: ${saved.status} ${await saved.text()}`);
  });
  afterAll(async () => context?.close());

  // The palette is the same at every width, but phones draw their own parts (stacked rows, the menu, the
  // Form | Preview switch): each is checked dark here, with its contrast.
  it('signed in: every screen is dark, with no serious violation and no sideways scroll', async () => {
    await signInViaUi(page, stack, EMAIL, PASSWORD);
    const found: string[] = [];
    for (const route of SIGNED_IN()) {
      await checkScreen(page, route, found, `phone-dark-${screenName(route)}`);
      if (!(await page.evaluate(() => document.documentElement.classList.contains('dark')))) {
        found.push(`${route}: not dark`);
      }
    }
    await page.getByRole('button', { name: 'Open navigation' }).first().click();
    for (const line of await seriousViolations(page)) found.push(`navigation menu: ${line}`);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/phone-dark-navigation.png` });
    await page.keyboard.press('Escape');
    expect(found).toEqual([]);
  }, 180_000);
});
