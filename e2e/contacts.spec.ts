import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, SCREENSHOT_DIR } from './support/browser';
import { recordBrowserTrouble, signInViaUi } from './support/session';
import { sharedStack } from './support/shared-stack';
import type { StackView } from './support/stack';
import { signUpViaApi } from '../test-support/business';

let stack: StackView;
let browser: Browser;
let page: Page;
let trouble: string[];

beforeAll(async () => {
  stack = await sharedStack();
  await signUpViaApi(stack, 'contacts@shop.test', 'correct horse battery', 'Contact Shop');
  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
  trouble = recordBrowserTrouble(page);
  await signInViaUi(page, stack, 'contacts@shop.test', 'correct horse battery');
});

afterEach(async (context) => {
  if (context.task.result?.state !== 'fail') return;
  console.log(`browser log:\n${trouble.join('\n')}`);
  console.log(`page text:\n${await page.locator('body').innerText()}`);
});

afterAll(async () => {
  await browser?.close();
});

const dialog = (name: string) => page.getByRole('dialog', { name });

describe('contacts in Chromium', () => {
  it('adds a contact and edits it', async () => {
    await page.getByRole('link', { name: 'Customers' }).click();
    await page.waitForURL(`${stack.url}/customers`);
    await page.getByRole('button', { name: 'Add New Contact' }).click();
    await dialog('Add New Contact').getByLabel('Name').fill('Ada Lovelace');
    await dialog('Add New Contact').getByLabel('WhatsApp Number').fill('4155550177');
    await dialog('Add New Contact').getByRole('button', { name: 'Add Contact' }).click();
    await page.getByRole('cell', { name: 'Ada Lovelace', exact: true }).waitFor();
    expect(await page.getByRole('cell', { name: '+1 415 555 0177', exact: true }).count()).toBe(1);

    await page.getByRole('button', { name: 'Edit Ada Lovelace' }).click();
    const edit = dialog('Edit Contact');
    await edit.getByLabel('Name').fill('Ada King');
    // Every other column is in the form too, under More details.
    await edit.getByText('More details').click();
    await edit.getByLabel('Email').fill('Ada@Example.test');
    await edit.getByLabel('Post Code').fill('NW1 6XE');
    await edit.getByRole('button', { name: 'Update Contact' }).click();
    await page.getByRole('cell', { name: 'Ada King', exact: true }).waitFor();
    expect(await page.getByRole('cell', { name: 'Ada Lovelace', exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Edit Ada King' }).click();
    await dialog('Edit Contact').getByText('More details').click();
    expect(await dialog('Edit Contact').getByLabel('Email').inputValue()).toBe('ada@example.test');
    expect(await dialog('Edit Contact').getByLabel('Post Code').inputValue()).toBe('NW1 6XE');
    await dialog('Edit Contact').getByRole('button', { name: 'Cancel' }).click();
    await dialog('Edit Contact').waitFor({ state: 'hidden' });
  });

  it('imports the downloaded template with a tag and shows the tag count', async () => {
    await page.getByRole('button', { name: 'Import Contacts' }).click();
    const importDialog = dialog('Import Contacts');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      importDialog.getByRole('link', { name: 'Download template' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('contact_import_template.csv');
    const templateFile = path.join(os.tmpdir(), `herald-e2e-${process.pid}-template.csv`);
    await download.saveAs(templateFile);
    expect(readFileSync(templateFile, 'utf8').split(/\r?\n/)[0]).toBe(
      'name,number,age,gender,address,post_code,email,tags',
    );

    await importDialog.getByLabel('CSV File').setInputFiles(templateFile);
    await importDialog.getByLabel('Tag').fill('  VIP  ');
    await importDialog.getByRole('button', { name: 'Import Contacts' }).click();
    await importDialog.waitFor({ state: 'hidden' });
    await page.getByText('VIP · 2').waitFor();
    // The template's tags column: each sample contact's own tags, besides the file's.
    await page.getByText('Newsletter · 2').waitFor();
    await page.getByText('Wholesale · 1').waitFor();
    await page.getByText('Showing 1 to 3 of 3 entries').waitFor();
  });

  it('searches and changes the page size', async () => {
    await page.getByRole('searchbox', { name: 'Search contacts' }).fill('king');
    await page.getByText('Showing 1 to 1 of 1 entries').waitFor();
    await page.getByRole('searchbox', { name: 'Search contacts' }).fill('');
    await page.getByText('Showing 1 to 3 of 3 entries').waitFor();

    // Enough contacts for a second page at 10 a page, then 25 a page shows them all.
    const rows = Array.from({ length: 12 }, (_, i) => `Bulk ${i},+1212555${String(1000 + i)},,,,,`).join(
      '\n',
    );
    const bulkFile = path.join(os.tmpdir(), `herald-e2e-${process.pid}-bulk.csv`);
    writeFileSync(bulkFile, `name,number,age,gender,address,post_code,email\n${rows}\n`);
    await page.getByRole('button', { name: 'Import Contacts' }).click();
    await dialog('Import Contacts').getByLabel('CSV File').setInputFiles(bulkFile);
    await dialog('Import Contacts').getByLabel('Tag').fill('Bulk');
    await dialog('Import Contacts').getByRole('button', { name: 'Import Contacts' }).click();
    await page.getByText('Page 1 of 2').waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Showing 11 to 15 of 15 entries').waitFor();
    await page.getByRole('combobox', { name: 'Page size' }).selectOption('25');
    await page.getByText('Showing 1 to 15 of 15 entries').waitFor();
    await page.getByText('Page 1 of 1').waitFor();
    await page.screenshot({ path: `${SCREENSHOT_DIR}/contacts.png` });
  });

  it('shows the row errors of a broken file and imports nothing', async () => {
    const broken = path.join(os.tmpdir(), `herald-e2e-${process.pid}-broken.csv`);
    writeFileSync(broken, 'name,number\nGood Row,+14155550188\n,+14155550189\nBad Number,12\n');
    await page.getByRole('button', { name: 'Import Contacts' }).click();
    const importDialog = dialog('Import Contacts');
    await importDialog.getByLabel('CSV File').setInputFiles(broken);
    await importDialog.getByLabel('Tag').fill('Broken');
    await importDialog.getByRole('button', { name: 'Import Contacts' }).click();
    const errors = importDialog.getByRole('list', { name: 'Import errors' });
    await errors.waitFor();
    const lines = await errors.getByRole('listitem').allTextContents();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^Row \d+: /);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/contacts-import-errors.png` });
    await importDialog.getByRole('button', { name: 'Cancel' }).click();
    await page.getByText('Showing 1 to 15 of 15 entries').waitFor();
    expect(await page.getByText(/^Broken ·/).count()).toBe(0);
  });

  it('deletes a contact after confirmation', async () => {
    await page.getByRole('button', { name: 'Delete Ada King' }).click();
    await dialog('Delete Contact').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Showing 1 to 14 of 14 entries').waitFor();
  });

  it('shows a UK number under GB, and says in plain words why a number is refused', async () => {
    await page.getByRole('button', { name: 'Add New Contact' }).click();
    const add = dialog('Add New Contact');
    await add.getByLabel('Name').fill('Brit Shopper');
    await add.getByRole('combobox', { name: 'Country' }).selectOption('GB');
    // A national number with its country chosen, four digits short.
    await add.getByLabel('WhatsApp Number').fill('07911 12');
    await add.getByRole('button', { name: 'Add Contact' }).click();
    await add.getByText('The number is too short for a United Kingdom number (+44)').waitFor();
    expect(await page.getByRole('cell', { name: 'Brit Shopper', exact: true }).count()).toBe(0);

    await add.getByLabel('WhatsApp Number').fill('07911 712345');
    await add.getByRole('button', { name: 'Add Contact' }).click();
    await page.getByRole('cell', { name: 'Brit Shopper', exact: true }).waitFor();
    expect(await page.getByRole('cell', { name: '+44 7911 712345', exact: true }).count()).toBe(1);

    // libphonenumber files 07911 7… numbers under Guernsey; a UK business sees its country.
    await page.getByRole('button', { name: 'Edit Brit Shopper' }).click();
    const edit = dialog('Edit Contact');
    expect(await edit.getByRole('combobox', { name: 'Country' }).inputValue()).toBe('GB');
    expect(await edit.innerText()).toMatch(/GB\s*\+44/);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/contact-uk-number.png` });
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await edit.waitFor({ state: 'hidden' });
  });
});
