import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, SCREENSHOT_DIR } from './support/browser';
import { recordBrowserTrouble, signInViaUi } from './support/session';
import { startStack, type Stack } from './support/stack';
import { closeAfterAll, printCluesOnFailure } from './support/spec-hooks';
import { apiLogin, createApprovedTemplate, importContacts, signUpViaApi } from '../test-support/business';

let stack: Stack;
let browser: Browser;
let page: Page;
let trouble: string[];

const EMAIL = 'tags@shop.test';
const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  // +1 numbers and a MARKETING template: Meta's US pause is tested in broadcast-rules.spec.ts, not here.
  stack = await startStack({ env: { SANDBOX_REVIEW_DELAY_MS: '300', SANDBOX_US_MARKETING_RULE: 'false' } });
  await signUpViaApi(stack, EMAIL, PASSWORD, 'Tag Shop');
  const token = await apiLogin(stack, EMAIL, PASSWORD);
  const rows = Array.from({ length: 6 }, (_, i) => `Guest ${i},+1628555${String(3000 + i)}`).join('\n');
  await importContacts(stack, token, `name,number\n${rows}\n`, 'Imported');
  await createApprovedTemplate(stack, token, {
    name: 'regulars_offer',
    language: 'en_US',
    category: 'MARKETING',
    components: [{ type: 'BODY', text: 'Hello {{1}}, a table is waiting for you.' }],
    dynamic_variables: { body_variable: { '1': 'name' } },
  });
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1440, height: 1000 } })).newPage();
  page.setDefaultTimeout(20_000);
  trouble = recordBrowserTrouble(page);
  await signInViaUi(page, stack, EMAIL, PASSWORD);
});

printCluesOnFailure(() => ({ stack, trouble, page }));
closeAfterAll(() => ({ browser, stack }));

const row = (name: string) => page.getByRole('row').filter({ hasText: name });

describe('tags managed where contacts are, in Chromium', () => {
  it('tags three contacts by hand, filters by the tag, and a broadcast to it reaches exactly those three', async () => {
    await page.goto(`${stack.url}/customers`);
    await row('Guest 5').waitFor();

    // Two existing contacts, checked in the table and tagged with the bulk bar.
    await row('Guest 1').getByRole('checkbox', { name: 'Select Guest 1' }).check();
    await row('Guest 4').getByRole('checkbox', { name: 'Select Guest 4' }).check();
    const bar = page.getByRole('form', { name: 'Tag the selected contacts' });
    await bar.getByText('2 selected').waitFor();
    await bar.getByLabel('Tag name').fill('Regulars');
    await page.screenshot({ path: `${SCREENSHOT_DIR}/customers-bulk-tag-bar.png` });
    await bar.getByRole('button', { name: 'Add tag' }).click();
    await page.getByText('Tag "Regulars" added to 2 contacts').first().waitFor();
    await row('Guest 1').getByRole('button', { name: 'Regulars' }).waitFor();

    // A third, new contact, tagged in the add form; its number typed the national way (the business is in the US).
    await page.getByRole('button', { name: 'Add New Contact' }).click();
    const form = page.getByRole('dialog', { name: 'Add New Contact' });
    await form.getByRole('button', { name: 'Add Contact' }).click();
    await form.getByText('Name is required').waitFor();
    await form.getByLabel('Name').fill('Walk-in Wanda');
    await form.getByLabel('WhatsApp Number').fill('(628) 555-3099');
    await form.getByLabel('Tags').fill('regulars');
    await form.getByLabel('Tags').press('Enter');
    await form.getByRole('list', { name: 'Tags of this contact' }).getByText('Regulars').waitFor();
    await page.screenshot({ path: `${SCREENSHOT_DIR}/contact-form-tags.png` });
    await form.getByRole('button', { name: 'Add Contact' }).click();
    await page.getByText('Contact added').first().waitFor();
    await row('Walk-in Wanda').getByRole('button', { name: 'Regulars' }).waitFor();

    // The tag list counts three; pressing it filters the table to them.
    await page.getByRole('button', { name: 'Regulars · 3' }).click();
    await page.getByRole('region', { name: 'Active filters' }).getByText('Tag: Regulars').waitFor();
    await expect.poll(() => page.getByText('Showing 1 to 3 of 3 entries').count()).toBe(1);
    const names = await page.locator('tbody tr td:nth-child(2)').allInnerTexts();
    expect(names.map((name) => name.trim()).sort()).toEqual(['Guest 1', 'Guest 4', 'Walk-in Wanda']);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/customers-filtered-by-tag.png` });

    // A broadcast to the tag.
    await page.goto(`${stack.url}/broadcast/new`);
    await page.getByRole('option', { name: 'regulars_offer (en_US)' }).waitFor({ state: 'attached' });
    await page.getByRole('textbox', { name: 'Broadcast Name' }).fill('Regulars only');
    await page
      .getByRole('combobox', { name: 'Message Template' })
      .selectOption({ label: 'regulars_offer (en_US)' });
    await page.getByRole('checkbox', { name: 'Regulars', exact: true }).check();
    await page.getByRole('slider', { name: 'Percentage of recipients' }).fill('100');
    await page.getByRole('button', { name: 'Send Broadcast' }).click();
    // Sending may ask for confirmation first (decision 037); confirm when it does.
    const created = page.getByText('Broadcast created successfully!').first();
    const confirm = page.getByRole('dialog');
    await Promise.race([created.waitFor(), confirm.waitFor()]);
    if (!(await created.isVisible())) {
      await confirm.getByRole('button', { name: /send/i }).last().click();
      await created.waitFor();
    }
    await page.waitForURL(`${stack.url}/broadcast`);
    await expect.poll(() => row('Regulars only').innerText(), { timeout: 30_000 }).toMatch(/Completed/i);

    // The sandbox's log of accepted messages: exactly the three tagged numbers, once each.
    const log = (await (await fetch(`${stack.sandboxUrl}/__sandbox/messages?limit=100`)).json()) as {
      total: number;
      data: Array<{ to: string; template: { name: string } }>;
    };
    expect(log.total).toBe(3);
    expect(log.data.map((message) => message.to).sort()).toEqual([
      '16285553001',
      '16285553004',
      '16285553099',
    ]);
    expect(new Set(log.data.map((message) => message.template.name))).toEqual(new Set(['regulars_offer']));
  }, 180_000);
});
