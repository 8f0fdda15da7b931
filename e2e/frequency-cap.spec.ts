import { mkdir } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './support/axe';
import { launchBrowser } from './support/browser';
import { recordBrowserTrouble, signInViaUi } from './support/session';
import { sharedStack } from './support/shared-stack';
import type { StackView } from './support/stack';
import { closeAfterAll, printCluesOnFailure } from './support/spec-hooks';
import { newBroadcastSettled, sandboxSent } from './support/new-broadcast';
import {
  apiLogin,
  createApprovedTemplate,
  createBroadcast,
  importContacts,
  signUpViaApi,
} from '../test-support/business';

// In Chromium: the account lowers its frequency cap in Settings; after one marketing broadcast, New broadcast
// says everyone would be skipped; the broadcast sent anyway shows each recipient as skipped (the sandbox's call
// log: nobody got a second one), and the follow-up it carries appears in the history beside it.

const SHOTS = '/tmp/shots';
const PASSWORD = 'correct horse battery';
const PEOPLE = ['+447911123701', '+447911123702', '+447911123703'];

let stack: StackView;
let browser: Browser;
let page: Page;
let trouble: string[];
let token: string;
let phoneNumberId: string;

async function api<T>(path: string): Promise<T> {
  const response = await fetch(`${stack.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  stack = await sharedStack({ SANDBOX_REVIEW_DELAY_MS: '300' });
  const business = await signUpViaApi(stack, 'cap@shop.test', PASSWORD, 'Cap Shop');
  phoneNumberId = business.phone_number_id;
  token = await apiLogin(stack, 'cap@shop.test', PASSWORD);
  const rows = PEOPLE.map((number, i) => `Regular ${i + 1},${number}`).join('\n');
  await importContacts(stack, token, `name,number\n${rows}\n`, 'Regulars');
  const offer = await createApprovedTemplate(stack, token, {
    name: 'spring_offer',
    language: 'en_US',
    category: 'MARKETING',
    components: [{ type: 'BODY', text: 'Spring offers are in.' }],
  });
  await createApprovedTemplate(stack, token, {
    name: 'spring_note',
    language: 'en_US',
    category: 'UTILITY',
    components: [{ type: 'BODY', text: 'Your spring order note.' }],
  });
  await createBroadcast(stack, token, {
    name: 'First offer',
    template_id: offer,
    recipients: { type: 'all', percentage: 100 },
  });
  // Sent before the browser opens: everyone has had one marketing message.
  const deadline = Date.now() + 30_000;
  while ((await sandboxSent(stack, phoneNumberId, 'spring_offer')).length < 3) {
    if (Date.now() > deadline) throw new Error('the first offer was not sent in time');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  page.setDefaultTimeout(20_000);
  trouble = recordBrowserTrouble(page);
});

printCluesOnFailure(() => ({ stack, trouble, page }));
closeAfterAll(() => ({ browser }));

describe('the frequency cap and a follow-up, in Chromium', () => {
  it('skips everyone over the cap, says so beforehand and in the report, and shows the follow-up in the history', async () => {
    await signInViaUi(page, stack, 'cap@shop.test', PASSWORD);

    // Settings: one marketing message per person per 7 days.
    await page.goto(`${stack.url}/settings`);
    await page.getByRole('tab', { name: 'Message Settings' }).click();
    await page.getByRole('tabpanel').getByRole('button', { name: 'Save' }).waitFor();
    expect(await page.getByLabel('Limit marketing messages per person').isChecked()).toBe(true);
    await page.getByRole('spinbutton', { name: 'Marketing messages per person' }).fill('1');
    await page.getByText('At most 1 marketing message per person per 7 days').waitFor();
    await page.getByRole('tabpanel').getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Message Settings saved.' }).waitFor();

    // New broadcast: everyone already had their one.
    await page.goto(`${stack.url}/broadcast/new`);
    await page.getByRole('option', { name: 'spring_offer (en_US)' }).waitFor({ state: 'attached' });
    await page.getByRole('textbox', { name: 'Broadcast Name' }).fill('Second offer');
    await page
      .getByRole('combobox', { name: 'Message Template' })
      .selectOption({ label: 'spring_offer (en_US)' });
    await page.getByRole('checkbox', { name: 'Regulars' }).check();
    await page.getByRole('slider', { name: 'Percentage of recipients' }).fill('100');
    await newBroadcastSettled(page, { frequencyCap: true });
    await expect
      .poll(() => page.getByTestId('frequency-cap-line').innerText())
      .toBe(
        '3 of these recipients will be skipped: they already had 1 marketing message per person per 7 days',
      );
    // A follow-up for those who do not read it.
    await page.getByRole('checkbox', { name: 'Send a follow-up' }).check();
    await page.getByLabel('Follow-up template').selectOption({ label: 'spring_note (en_US)' });
    await page.getByLabel('After (hours)').fill('48');
    await page.getByLabel('Send to those who').selectOption({ label: 'did not read it' });
    await page.screenshot({ path: `${SHOTS}/cap-new-broadcast.png`, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Send Broadcast' }).click();
    await page
      .getByRole('dialog')
      .getByText('spring_note after 48 hours to those who did not read it')
      .waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Send Broadcast' }).click();
    await page.waitForURL(`${stack.url}/broadcast`);

    // The history: the broadcast ends with everyone skipped; its follow-up waits beside it.
    const { results } = await api<{ results: Array<{ id: number; name: string; status: string }> }>(
      '/broadcast/create/',
    );
    const id = results.find((r) => r.name === 'Second offer')!.id;
    await expect
      .poll(
        async () =>
          (await api<{ results: Array<{ id: number; status: string }> }>('/broadcast/create/')).results.find(
            (r) => r.id === id,
          )!.status,
        { timeout: 30_000 },
      )
      .toBe('completed');
    await page.reload();
    const followUpRow = page.getByRole('row').filter({ hasText: 'Second offer (follow-up)' });
    await followUpRow.waitFor();
    expect(await followUpRow.getByTestId('follow-up-of').innerText()).toContain('Follow-up of Second offer');
    const row = page
      .getByRole('row')
      .filter({ hasText: 'Second offer' })
      .filter({ hasNotText: '(follow-up)' });
    await expect.poll(() => row.innerText()).toContain('skipped by the frequency cap');
    await page.screenshot({ path: `${SHOTS}/cap-history.png`, fullPage: true });

    // The report: each recipient skipped, not failed; nobody got a second marketing message.
    await page.goto(`${stack.url}/broadcast/${id}`);
    await page.getByRole('heading', { name: 'Delivery Report: Second offer' }).waitFor();
    const filters = page.getByRole('group', { name: 'Filter by outcome' });
    await expect
      .poll(() => filters.getByRole('button', { name: /^Skipped: frequency cap/ }).innerText())
      .toBe('Skipped: frequency cap · 3');
    await expect
      .poll(() => page.getByRole('row').filter({ hasText: 'Skipped: frequency cap' }).count())
      .toBe(3);
    expect(await filters.getByRole('button', { name: /^Failed/ }).innerText()).toBe('Failed · 0');
    await page.screenshot({ path: `${SHOTS}/cap-report.png`, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
    expect((await sandboxSent(stack, phoneNumberId, 'spring_offer')).length).toBe(3);
  });
});
