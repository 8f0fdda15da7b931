import { mkdir, readFile } from 'node:fs/promises';
import type { Browser, Download, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BroadcastReport } from '@herald/contracts';
import { launchBrowser } from './support/browser';
import { recordBrowserTrouble, signInViaUi } from './support/session';
import { sharedStack } from './support/shared-stack';
import type { StackView } from './support/stack';
import { closeAfterAll, printCluesOnFailure } from './support/spec-hooks';
import { apiLogin, createApprovedTemplate, importContacts, signUpViaApi } from '../test-support/business';

// In Chromium: the history filtered by date and exported (the downloaded CSV's rows), a
// report exported under a filter and 'New broadcast to these recipients' landing on New broadcast with the URL.

const SHOTS = '/tmp/shots';
const PASSWORD = 'correct horse battery';
const GUESTS = ['+16285554000', '+16285554001', '+16285554002'];

let stack: StackView;
let browser: Browser;
let page: Page;
let trouble: string[];
let token: string;
let sentId: number;

async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${stack.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** The rows of a downloaded CSV (BOM; these cells hold no comma, quote or line break). */
async function csvRows(download: Download): Promise<string[][]> {
  const text = await readFile((await download.path())!, 'utf8');
  expect(text.startsWith('\uFEFF')).toBe(true);
  return text
    .slice(1)
    .split(/\r?\n/)
    .filter((line) => line !== '')
    .map((line) => line.split(','));
}

async function downloadOf(click: () => Promise<void>): Promise<Download> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  return download;
}

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  stack = await sharedStack({ SANDBOX_REVIEW_DELAY_MS: '300', SANDBOX_US_MARKETING_RULE: 'false' });
  await signUpViaApi(stack, 'history@shop.test', PASSWORD, 'History Shop');
  token = await apiLogin(stack, 'history@shop.test', PASSWORD);
  const rows = GUESTS.map((number, i) => `Guest ${i},${number}`).join('\n');
  await importContacts(stack, token, `name,number\n${rows}\n`, 'VIP');
  const templateId = await createApprovedTemplate(stack, token, {
    name: 'history_offer',
    language: 'en_US',
    category: 'MARKETING',
    components: [{ type: 'BODY', text: 'Hello {{1}}, your offer is waiting.' }],
    dynamic_variables: { body_variable: { '1': 'name' } },
  });
  const broadcast = (name: string, scheduledTime?: number) =>
    api<{ id: number }>('/broadcast/create/', {
      method: 'POST',
      body: JSON.stringify({
        name,
        template_id: templateId,
        recipients: { type: 'all', percentage: 100 },
        ...(scheduledTime ? { scheduled_time: scheduledTime } : {}),
      }),
    });
  sentId = (await broadcast('Sent today')).id;
  // Ten days ahead: outside today's range, and its recipients are not counted as unsent.
  await broadcast('Next week', Math.floor(Date.now() / 1000) + 10 * 24 * 3600);
  browser = await launchBrowser();
  const context = await browser.newContext({
    viewport: { width: 1280, height: 1000 },
    acceptDownloads: true,
  });
  page = await context.newPage();
  page.setDefaultTimeout(20_000);
  trouble = recordBrowserTrouble(page);
  await signInViaUi(page, stack, 'history@shop.test', PASSWORD);
});

printCluesOnFailure(() => ({ stack, trouble, page }));
closeAfterAll(() => ({ browser }));

const card = (title: string) =>
  page.getByRole('list', { name: 'Summary' }).getByRole('listitem', { name: title });

describe('Broadcast history and report exports in Chromium', () => {
  it('filters the history by date, exports what it shows, and keeps the scheduled recipients apart', async () => {
    await expect
      .poll(
        async () => {
          const { outcomes } = await api<BroadcastReport>(`/broadcast/${sentId}/recipients/`);
          return outcomes.delivered + outcomes.read;
        },
        { timeout: 60_000, interval: 500 },
      )
      .toBe(GUESTS.length);
    await page.goto(`${stack.url}/broadcast`);
    await page.getByRole('link', { name: 'Next week' }).waitFor();
    await page.getByRole('link', { name: 'Sent today' }).waitFor();
    expect(await card('Total Recipients').innerText()).toContain('plus 3 in scheduled broadcasts');
    // At 1280 px beside the navigation, every column, Status and Actions included, shows without scrolling.
    const table = page.getByRole('table');
    const frame = table.locator('xpath=..');
    expect(await frame.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    const box = (await frame.boundingBox())!;
    const headers = await table.getByRole('columnheader').all();
    expect(headers.length).toBe(12);
    for (const header of headers) {
      const cell = (await header.boundingBox())!;
      expect(cell.x + cell.width).toBeLessThanOrEqual(box.x + box.width + 0.5);
    }

    const today = await page.evaluate(() => new Intl.DateTimeFormat('en-CA').format(new Date()));
    await page.getByLabel('From', { exact: true }).fill(today);
    await page.getByLabel('To', { exact: true }).fill(today);
    await page.getByRole('button', { name: 'Apply now' }).click();
    // The cards follow the filter; then the list shows that day's broadcast only.
    await expect.poll(() => card('Total Broadcasts').innerText()).toMatch(/Total Broadcasts\s*1\b/);
    await page.getByRole('link', { name: 'Sent today' }).waitFor();
    expect(await page.getByRole('link', { name: 'Next week' }).count()).toBe(0);
    expect(await card('Scheduled').innerText()).toMatch(/Scheduled\s*0/);
    await page.screenshot({ path: `${SHOTS}/history-filtered-1280.png`, fullPage: true });

    const download = await downloadOf(() => page.getByRole('button', { name: 'Export' }).click());
    expect(download.suggestedFilename()).toBe(`herald-broadcasts-${today}-to-${today}.csv`);
    const rows = await csvRows(download);
    expect(rows[0]!.slice(0, 6)).toEqual(['id', 'name', 'template', 'scheduled', 'status', 'recipients']);
    expect(rows.slice(1).map((row) => [row[0], row[1], row[2], row[5]])).toEqual([
      [String(sentId), 'Sent today', 'history_offer', '3'],
    ]);
  });

  it('exports a report under its filter and offers a new broadcast to those recipients', async () => {
    await page.getByRole('link', { name: 'Sent today' }).click();
    await page.getByRole('heading', { level: 1, name: 'Delivery Report: Sent today' }).waitFor();
    // Numbers read as in Customers.
    await page.getByRole('cell', { name: '+1 628 555 4000' }).waitFor();

    const all = await csvRows(await downloadOf(() => page.getByRole('button', { name: 'Export' }).click()));
    expect(all[0]).toEqual([
      'name',
      'whatsapp_number',
      'outcome',
      'error_code',
      'error_title',
      'last_update',
      'reply',
      'replied_at',
    ]);
    // A number in E.164 is written as it is (a spreadsheet reads it as a number, and the file imports back).
    expect(all.slice(1).map((row) => [row[0], row[1]])).toEqual(GUESTS.map((n, i) => [`Guest ${i}`, n]));
    expect(new Set(all.slice(1).map((row) => row[2]))).toSatisfy((outcomes: Set<string>) =>
      [...outcomes].every((o) => o === 'delivered' || o === 'read'),
    );

    // The non-readers (Not read: sent or delivered), or the readers when the sandbox read every message; no
    // 'New broadcast' button before a filter.
    expect(await page.getByRole('link', { name: 'New broadcast to these recipients' }).count()).toBe(0);
    const { outcomes } = await api<BroadcastReport>(`/broadcast/${sentId}/recipients/`);
    const notRead = outcomes.sent + outcomes.delivered;
    const [outcome, label, count] =
      notRead > 0 ? ['not_read', 'Not read', notRead] : ['read', 'Read', outcomes.read];
    await page
      .getByRole('group', { name: 'Filter by outcome' })
      .getByRole('button', { name: `${label} · ${count}` })
      .click();
    const filtered = await csvRows(
      await downloadOf(() => page.getByRole('button', { name: 'Export' }).click()),
    );
    expect(filtered).toHaveLength(count + 1);
    expect(
      filtered
        .slice(1)
        .every((row) => (outcome === 'read' ? row[2] === 'read' : ['sent', 'delivered'].includes(row[2]!))),
    ).toBe(true);

    await page.getByRole('link', { name: 'New broadcast to these recipients' }).click();
    await page.waitForURL(`${stack.url}/broadcast/new?retarget=${sentId}&filter=outcome%3D${outcome}`);
    await page.getByRole('heading', { level: 1, name: 'New Broadcast' }).waitFor();
    await page.screenshot({ path: `${SHOTS}/retarget-new-broadcast-1280.png`, fullPage: true });

    // And retarget them: the new broadcast goes to exactly the report's filtered recipients.
    await page.getByRole('status', { name: 'Retarget recipients' }).waitFor();
    await page.getByRole('textbox', { name: 'Broadcast Name' }).fill('Second chance');
    await page
      .getByRole('combobox', { name: 'Message Template' })
      .selectOption({ label: 'history_offer (en_US)' });
    await page.getByRole('button', { name: 'Send Broadcast' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send this broadcast now?' });
    await dialog.getByRole('button', { name: 'Send Broadcast' }).click();
    await page.waitForURL(`${stack.url}/broadcast`);
    const second = await api<{ results: Array<{ id: number; name: string }> }>(
      '/broadcast/create/?search=Second%20chance',
    );
    const secondId = second.results.find((b) => b.name === 'Second chance')!.id;
    const expected = filtered.slice(1).map((row) => row[1]!);
    await expect
      .poll(
        async () => {
          const report = await api<{ count: number; results: Array<{ whatsapp_number: string }> }>(
            `/broadcast/${secondId}/recipients/`,
          );
          return report.results.map((r) => r.whatsapp_number.replace(/\s/g, '')).sort();
        },
        { timeout: 30_000 },
      )
      .toEqual([...expected].sort());
  });

  it("imports a report's export back into Customers as it is: the same contacts, names and numbers", async () => {
    await page.goto(`${stack.url}/broadcast/${sentId}`);
    await page.getByRole('heading', { level: 1, name: 'Delivery Report: Sent today' }).waitFor();
    const download = await downloadOf(() => page.getByRole('button', { name: 'Export' }).click());
    const file = (await download.path())!;

    await page.goto(`${stack.url}/customers`);
    await page.getByRole('button', { name: 'Import Contacts' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import Contacts' });
    await dialog.getByLabel('CSV File').setInputFiles({
      name: 'report.csv',
      mimeType: 'text/csv',
      buffer: await readFile(file),
    });
    await dialog.getByLabel('Tag').fill('From the report');
    await dialog.getByRole('button', { name: 'Import Contacts' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('From the report · 3').waitFor();
    // No contact was made from a changed number: the three are the same three, by name and number.
    await page.getByText('Showing 1 to 3 of 3 entries').waitFor();
    const contacts = await api<{ results: Array<{ recipient_name: string; whatsapp_number: string }> }>(
      '/recipient/create/?page_size=100',
    );
    expect(contacts.results.map((c) => [c.recipient_name, c.whatsapp_number]).sort()).toEqual(
      GUESTS.map((n, i) => [`Guest ${i}`, n]),
    );
  });
});
