import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './support/axe';
import { launchBrowser, SCREENSHOT_DIR } from './support/browser';
import { recordBrowserTrouble, signInViaUi } from './support/session';
import { removeDataDir, startStack, type Stack } from './support/stack';
import { signUpViaApi } from '../test-support/business';

let stack: Stack;
let browser: Browser;
let page: Page;
let trouble: string[];

// A 1×1 PNG, a real image for the header preview.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

beforeAll(async () => {
  // Reviews take 2 s: long enough to see PENDING, short enough for a test.
  stack = await startStack({ env: { SANDBOX_REVIEW_DELAY_MS: '2000' } });
  await signUpViaApi(stack, 'templates@shop.test', 'correct horse battery', 'Template Shop');
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1440, height: 1000 } })).newPage();
  page.setDefaultTimeout(20_000);
  trouble = recordBrowserTrouble(page);
  await signInViaUi(page, stack, 'templates@shop.test', 'correct horse battery');
});

afterEach(async (context) => {
  if (context.task.result?.state !== 'fail') return;
  console.log(`browser log:\n${trouble.join('\n')}`);
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  if (stack) await removeDataDir(stack.dataDir);
});

const region = (name: string) => page.getByRole('region', { name });
const row = (name: string) =>
  page.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });

async function newTemplate(name: string) {
  await page.goto(`${stack.url}/template`);
  await page.getByRole('link', { name: 'New Template Message' }).click();
  await page.waitForURL(`${stack.url}/template/create-template`);
  await page.getByLabel('Template Name').fill(name);
}

async function save() {
  await page.getByRole('button', { name: 'Save Template' }).click();
  await page.getByText('Template saved successfully!').first().waitFor();
  await page.waitForURL(`${stack.url}/template`);
}

describe('templates in Chromium', () => {
  it('creates a text template with a dynamic variable and a URL button; the sandbox approves it', async () => {
    await newTemplate('Order Ready');
    expect(await page.getByLabel('Template Name').inputValue()).toBe('order_ready');

    const header = region('Header Configuration');
    await header.getByText('Text', { exact: true }).click();
    await header.getByLabel('Header Text').fill('Hello {{1}}');
    await header.getByLabel('Value for {{1}}', { exact: true }).fill('friend');

    const body = region('Body Content');
    await body.getByLabel('Body Text').fill('Hi {{1}}, your order {{2}} is ready.');
    await page.getByText('Variables: 2/10').waitFor();
    const first = page.getByRole('group', { name: 'Variable {{1}}' });
    await first.getByRole('button', { name: 'Dynamic' }).click();
    await first.getByLabel('Select a field for {{1}}').selectOption('name');
    await page
      .getByRole('group', { name: 'Variable {{2}}' })
      .getByLabel('Value for {{2}} (Required)')
      .fill('A-100');

    await page.getByRole('button', { name: 'Add URL' }).click();
    const button = page.getByRole('group', { name: 'Button 1' });
    await button.getByLabel('Button Text').fill('Track order');
    await button.getByLabel('Website URL').fill('https://shop.test/track');

    const preview = page.getByRole('figure', { name: 'Template preview' });
    await preview.getByText('8:00 AM').waitFor();
    await expect.poll(() => preview.innerText()).toContain('A-100');
    const json = JSON.parse((await page.getByLabel('Template payload JSON').innerText()) || '{}');
    expect(json).toMatchObject({ name: 'order_ready', category: 'MARKETING' });
    await page.screenshot({ path: `${SCREENSHOT_DIR}/template-create.png`, fullPage: true });
    // The form at its fullest: header, variables, a button and its preview, the JSON block.
    expect(await seriousViolations(page)).toEqual([]);
    await save();

    await row('order_ready').getByText('PENDING', { exact: false }).first().waitFor();
    // The list polls while a row is pending: approval shows up without a reload.
    await row('order_ready')
      .getByText(/approved/i)
      .first()
      .waitFor({ timeout: 20_000 });
  });

  it('creates an image-header template through the upload and previews the image', async () => {
    await newTemplate('picture_sale');
    await region('Header Configuration').getByText('Image', { exact: true }).click();
    const file = path.join(os.tmpdir(), `herald-e2e-${process.pid}-sale.png`);
    writeFileSync(file, PNG);
    await page.getByLabel('Click to upload or drag and drop').setInputFiles(file);
    await page.getByRole('img', { name: 'Header image preview' }).waitFor();
    await region('Body Content').getByLabel('Body Text').fill('Our sale starts now.');
    await save();
    await row('picture_sale').waitFor();

    await row('picture_sale').getByRole('link', { name: 'picture_sale', exact: true }).click();
    await page.getByRole('button', { name: 'Update Template' }).waitFor();
    // The stored image comes back from the server for the edit screen's preview.
    const image = page.getByRole('img', { name: 'Header image preview' });
    await image.waitFor();
    expect(await image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('edits an approved template', async () => {
    await page.goto(`${stack.url}/template`);
    await row('order_ready').getByRole('link', { name: 'Edit order_ready' }).click();
    await page.getByRole('button', { name: 'Update Template' }).waitFor();
    await page.getByLabel('Footer Text').fill('Reply STOP to opt out');
    await page.getByRole('button', { name: 'Update Template' }).click();
    await page.getByText('Template updated successfully!').first().waitFor();
    await page.waitForURL(`${stack.url}/template`);
    await row('order_ready').getByText('PENDING', { exact: false }).first().waitFor();
  });

  it('New broadcast with a template that has buttons has no serious accessibility violation', async () => {
    await row('order_ready')
      .getByText(/approved/i)
      .first()
      .waitFor({ timeout: 20_000 });
    await page.goto(`${stack.url}/broadcast/new`);
    await page
      .getByRole('combobox', { name: 'Message Template' })
      .selectOption({ label: 'order_ready (en_US)' });
    await page.getByRole('figure', { name: 'Message preview' }).getByText('Track order').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('shows the reason of a rejected template', async () => {
    await newTemplate('promo_reject_scam');
    await region('Body Content').getByLabel('Body Text').fill('Free money, act now.');
    await save();
    await row('promo_reject_scam').getByText('SCAM', { exact: true }).waitFor({ timeout: 20_000 });
    expect(await row('promo_reject_scam').getByText('REJECTED', { exact: false }).count()).toBeGreaterThan(0);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/templates-list.png` });
  });

  it('deletes a template after the confirmation', async () => {
    await page.getByRole('button', { name: 'Delete promo_reject_scam' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Template' });
    await dialog.getByText('Are you sure you want to delete the template?').waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => row('promo_reject_scam').count()).toBe(0);
    expect(await row('order_ready').count()).toBe(1);
  });
});
