import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, SCREENSHOT_DIR } from './support/browser';
import { recordBrowserTrouble, signInViaUi } from './support/session';
import { sharedStack } from './support/shared-stack';
import type { StackView } from './support/stack';
import { signUpViaApi } from '../test-support/business';

// In real Chromium: each settings tab saves, a reload shows what was saved, and the options
// act: the dark theme on every screen, the Beta badge, the default language and approval on a new template.
let stack: StackView;
let browser: Browser;
let page: Page;
let trouble: string[];

beforeAll(async () => {
  stack = await sharedStack();
  await signUpViaApi(stack, 'settings@shop.test', 'correct horse battery', 'Settings Shop');
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1440, height: 1000 } })).newPage();
  page.setDefaultTimeout(20_000);
  trouble = recordBrowserTrouble(page);
  await signInViaUi(page, stack, 'settings@shop.test', 'correct horse battery');
});

afterEach(async (context) => {
  if (context.task.result?.state !== 'fail') return;
  console.log(`browser log:\n${trouble.join('\n')}`);
});

afterAll(async () => {
  await browser?.close();
});

async function openTab(name: string) {
  await page.getByRole('tab', { name }).click();
  // The stored tabs wait for the account's settings before they show controls.
  await page.getByRole('tabpanel').getByRole('button', { name: 'Save' }).waitFor();
}

async function saveTab(title: string) {
  await page.getByRole('tabpanel').getByRole('button', { name: 'Save' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: `${title} saved.` })
    .waitFor();
}

async function reloadSettings() {
  await page.reload();
  await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
}

const isDark = () => page.evaluate(() => document.documentElement.classList.contains('dark'));

describe('settings in Chromium', () => {
  it('Message Settings: saved, kept after a reload', async () => {
    await page.goto(`${stack.url}/settings`);
    await openTab('Message Settings');
    await page.getByLabel('Default Language').selectOption({ label: 'French' });
    await page.getByLabel('Require Approval for New Templates').check();
    await page.getByLabel('Opt-out Words').fill('stop, arrêt, assez');
    await saveTab('Message Settings');

    await reloadSettings();
    await openTab('Message Settings');
    expect(await page.getByLabel('Default Language').inputValue()).toBe('fr');
    expect(await page.getByLabel('Require Approval for New Templates').isChecked()).toBe(true);
    expect(await page.getByLabel('Opt-out Words').inputValue()).toBe('stop, arrêt, assez');
  });

  it('Customer Settings: saved, kept after a reload, and the tab says no mail server is configured', async () => {
    await openTab('Customer Settings');
    await page
      .getByText('No mail server is configured: Herald cannot send e-mail until SMTP_URL is set.')
      .waitFor();
    await page.getByLabel('Notify Customers via Email').check();
    await page.getByLabel('Data Retention').selectOption({ label: '1 Year' });
    await saveTab('Customer Settings');

    await reloadSettings();
    await openTab('Customer Settings');
    expect(await page.getByLabel('Notify Customers via Email').isChecked()).toBe(true);
    expect(await page.getByLabel('Data Retention').inputValue()).toBe('1');
  });

  it('Other Settings: the dark theme applies at once, on reload and on every screen; Beta shows in the header', async () => {
    await openTab('Other Settings');
    expect(await isDark()).toBe(false);
    await page.getByLabel('Enable Dark Theme for Dashboard').check();
    await page.getByLabel('Activate Beta Features').check();
    await saveTab('Other Settings');
    expect(await isDark()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.style.colorScheme)).toBe('dark');
    await page.getByRole('banner').getByText('Beta', { exact: true }).waitFor();

    await reloadSettings();
    await expect.poll(isDark).toBe(true);
    await openTab('Other Settings');
    expect(await page.getByLabel('Enable Dark Theme for Dashboard').isChecked()).toBe(true);
    expect(await page.getByLabel('Activate Beta Features').isChecked()).toBe(true);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/settings-dark.png`, fullPage: true });

    await page.goto(`${stack.url}/customers`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await expect.poll(isDark).toBe(true);
    await page.getByRole('banner').getByText('Beta', { exact: true }).waitFor();
  });

  it('the default language and approval act on a new template: French, kept as a draft until Submit', async () => {
    await page.goto(`${stack.url}/template/create-template`);
    // The account's settings arrive after the form: a loaded machine may take more than poll's default second.
    await expect.poll(() => page.getByLabel('Language').inputValue(), { timeout: 15_000 }).toBe('fr');
    await page.getByLabel('Template Name').fill('offre_ete');
    await page.getByLabel('Body Text').fill('Les soldes commencent aujourd’hui.');
    await page.getByRole('button', { name: 'Save Template' }).click();
    await page.waitForURL(`${stack.url}/template`);

    const row = page
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: 'offre_ete', exact: true }) });
    await row.getByText('DRAFT', { exact: true }).waitFor();
    const atMeta = (await (await fetch(`${stack.sandboxUrl}/__sandbox/state`)).json()) as {
      templates: Array<{ name: string }>;
    };
    expect(atMeta.templates.map((t) => t.name)).not.toContain('offre_ete');

    await row.getByRole('button', { name: 'Submit' }).click();
    await row
      .getByText(/pending|approved/i)
      .first()
      .waitFor();
  });

  it('turning the dark theme off brings the light theme back at once and after a reload', async () => {
    await page.goto(`${stack.url}/settings`);
    await expect.poll(isDark).toBe(true);
    await openTab('Other Settings');
    await page.getByLabel('Enable Dark Theme for Dashboard').uncheck();
    await saveTab('Other Settings');
    expect(await isDark()).toBe(false);

    await reloadSettings();
    await openTab('Other Settings');
    expect(await page.getByLabel('Enable Dark Theme for Dashboard').isChecked()).toBe(false);
    expect(await isDark()).toBe(false);
    await page.getByRole('banner').getByText('Beta', { exact: true }).waitFor();
  });
});
