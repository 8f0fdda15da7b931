import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, SCREENSHOT_DIR } from './support/browser';
import { recordBrowserTrouble } from './support/session';
import { sharedStack } from './support/shared-stack';
import type { StackView } from './support/stack';

// In Chromium: what a new user met on the sign-in page, the numbers table and the import.
const EMAIL = 'frictions@laden.test';
const PASSWORD = 'correct horse battery';
// Not UTC, so a time shown as Meta wrote it would differ from the local one.
const TIME_ZONE = 'Asia/Kolkata';

let stack: StackView;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let trouble: string[];

/** Signs up a German business (its number +49 30 …), as the Embedded Signup page would after the popup. */
async function signUpGermanBusiness() {
  const business = (await (
    await fetch(`${stack.sandboxUrl}/__sandbox/wabas`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        business_name: 'Feinkost Müller & Söhne Lebensmittelhandel Berlin-Charlottenburg',
        phone_number: '+493012345678',
      }),
    })
  ).json()) as { waba_id: string; phone_number_id: string; code: string };
  const response = await fetch(`${stack.url}/api/auth/facebook/callback/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      code: business.code,
      waba_id: business.waba_id,
      phone_number_id: business.phone_number_id,
      account_data: { waba_id: business.waba_id, phone_number_id: business.phone_number_id },
      email: EMAIL,
      password: PASSWORD,
    }),
  });
  if (response.status !== 200) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
}

beforeAll(async () => {
  stack = await sharedStack();
  await signUpGermanBusiness();
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1440, height: 900 }, timezoneId: TIME_ZONE });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
  trouble = recordBrowserTrouble(page);
});

afterEach(async (test) => {
  if (test.task.result?.state !== 'fail') return;
  console.log(`browser log:\n${trouble.join('\n')}`);
  console.log(`page text:\n${await page.locator('body').innerText()}`);
});

afterAll(async () => {
  await browser?.close();
});

const toasts = () => page.locator('[data-rht-toaster]');

describe('frictions a new user meets, in Chromium', () => {
  it("says the 'Username' is an e-mail, and a failed sign-in says why once, inline, until it succeeds", async () => {
    await page.goto(`${stack.url}/`);
    const username = page.getByLabel('Username');
    expect(await username.getAttribute('placeholder')).toBe('you@company.com');
    await page.getByText('Your e-mail address').waitFor();

    await username.fill(EMAIL);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const failure = 'Invalid email or password';
    await page.getByRole('alert').filter({ hasText: failure }).waitFor();
    expect(await page.getByText(failure).count()).toBe(1);
    expect(await toasts().getByText(failure).count()).toBe(0);

    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${stack.url}/dashboard`);
    expect(await page.getByText(failure).count()).toBe(0);
  });

  it('shows every column of the numbers table at 1440 px, with the onboarding time in local time', async () => {
    await page.getByRole('link', { name: 'WhatsApp Number', exact: true }).click();
    const table = page.getByRole('table');
    await table.getByRole('cell', { name: 'VERIFIED' }).waitFor();
    const frame = table.locator('xpath=..');
    const fits = await frame.evaluate((element) => element.scrollWidth <= element.clientWidth);
    expect(fits).toBe(true);
    const box = (await frame.boundingBox())!;
    const headers = table.getByRole('columnheader');
    expect(await headers.count()).toBe(8);
    for (const header of await headers.all()) {
      const cell = (await header.boundingBox())!;
      expect(cell.x).toBeGreaterThanOrEqual(box.x);
      expect(cell.x + cell.width).toBeLessThanOrEqual(box.x + box.width + 0.5);
    }
    expect(await page.getByTestId('scroll-hint').count()).toBe(0);

    const time = table.locator('time');
    const raw = (await time.getAttribute('datetime'))!;
    expect(raw).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/);
    const local = new Intl.DateTimeFormat('en-US', {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: TIME_ZONE,
    }).format(new Date(raw.replace(/(\d{2})(\d{2})$/, '$1:$2')));
    expect(await time.innerText()).toBe(local);
    expect(await table.innerText()).not.toContain(raw);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/numbers-1440.png` });
  });

  it('says the numbers table scrolls sideways when the columns do not fit', async () => {
    await page.setViewportSize({ width: 1024, height: 800 });
    const hint = page.getByTestId('scroll-hint');
    await hint.waitFor();
    expect(await hint.innerText()).toContain('Scroll sideways to see every column');
    await page.getByTestId('scroll-shade').waitFor();
    const region = page.getByRole('region', { name: 'WhatsApp numbers table' });
    // The last column comes into view by scrolling, and the shade goes at the end.
    await region.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
    await page.getByTestId('scroll-shade').waitFor({ state: 'hidden' });
    const last = (await page.getByRole('columnheader', { name: 'ID' }).boundingBox())!;
    const box = (await region.boundingBox())!;
    expect(last.x + last.width).toBeLessThanOrEqual(box.x + box.width + 0.5);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/numbers-1024.png` });
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it("imports an Excel 'CSV (Comma delimited)' file with 'José' and national numbers read as German", async () => {
    // Windows-1252, as Excel saves it on a Western Windows: é is the single byte E9.
    const file = path.join(os.tmpdir(), `herald-e2e-${process.pid}-excel.csv`);
    writeFileSync(
      file,
      Buffer.from('name,number\r\nJosé Müller,030 12345679\r\nAna,+44 7911 123456\r\n', 'latin1'),
    );
    await page.getByRole('link', { name: 'Customers' }).click();
    await page.getByRole('button', { name: 'Import Contacts' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import Contacts' });
    const country = dialog.getByLabel('Default country');
    expect(await country.inputValue()).toBe('DE');
    await dialog.getByLabel('CSV File').setInputFiles(file);
    await dialog.getByLabel('Tag').fill('Excel');
    await dialog.getByRole('button', { name: 'Import Contacts' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('cell', { name: 'José Müller', exact: true }).waitFor();
    expect(await page.getByText('Jos\uFFFD').count()).toBe(0);
    const row = page.getByRole('row').filter({ hasText: 'José Müller' });
    expect(await row.innerText()).toContain('+49 30 12345679');
    expect(await page.getByRole('row').filter({ hasText: 'Ana' }).innerText()).toContain('+44 7911 123456');
    await page.screenshot({ path: `${SCREENSHOT_DIR}/contacts-import-excel.png` });
  });
});
