import { mkdir } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BroadcastReport } from '@herald/contracts';
import { launchBrowser } from './support/browser';
import { recordBrowserTrouble, signInViaUi } from './support/session';
import { sharedStack } from './support/shared-stack';
import type { StackView } from './support/stack';
import { closeAfterAll, printCluesOnFailure } from './support/spec-hooks';
import { apiLogin, createApprovedTemplate, importContacts, signUpViaApi } from '../test-support/business';

// End to end: a broadcast to three contacts, delivered and read by the sandbox, one recipient replies
// through the sandbox's control API; the report's Replied filter and the Dashboard's cards and charts show
// exactly those figures. A brand-new account's Dashboard shows the empty state.

const SHOTS = '/tmp/shots';
const PASSWORD = 'correct horse battery';
const GUESTS = ['+16285553000', '+16285553001', '+16285553002'];

let stack: StackView;
let browser: Browser;
let page: Page;
let trouble: string[];
let token: string;
let phoneNumberId: string;
let broadcastId: number;

async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${stack.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

const report = () => api<BroadcastReport>(`/broadcast/${broadcastId}/recipients/`);

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  stack = await sharedStack({ SANDBOX_REVIEW_DELAY_MS: '300', SANDBOX_US_MARKETING_RULE: 'false' });
  const business = await signUpViaApi(stack, 'figures@shop.test', PASSWORD, 'Figures Shop');
  phoneNumberId = business.phone_number_id;
  await signUpViaApi(stack, 'fresh@shop.test', PASSWORD, 'Fresh Shop');
  token = await apiLogin(stack, 'figures@shop.test', PASSWORD);
  const rows = GUESTS.map((number, i) => `Guest ${i},${number}`).join('\n');
  await importContacts(stack, token, `name,number\n${rows}\n`, 'VIP');
  const templateId = await createApprovedTemplate(stack, token, {
    name: 'figures_offer',
    language: 'en_US',
    category: 'MARKETING',
    components: [{ type: 'BODY', text: 'Hello {{1}}, your offer is waiting.' }],
    dynamic_variables: { body_variable: { '1': 'name' } },
  });
  const created = await api<{ id: number }>('/broadcast/create/', {
    method: 'POST',
    body: JSON.stringify({
      name: 'Figures launch',
      template_id: templateId,
      recipients: { type: 'all', percentage: 100 },
    }),
  });
  broadcastId = created.id;
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 1000 } })).newPage();
  page.setDefaultTimeout(20_000);
  trouble = recordBrowserTrouble(page);
  await signInViaUi(page, stack, 'figures@shop.test', PASSWORD);
});

printCluesOnFailure(() => ({ stack, trouble, page }));
closeAfterAll(() => ({ browser }));

const card = (title: string) =>
  page.getByRole('list', { name: 'Metrics' }).getByRole('listitem', { name: title });
const cardValue = async (title: string) => (await card(title).locator('p').nth(1).innerText()).trim();
const chartSummary = (title: string) =>
  page.getByRole('figure', { name: title }).getByTestId('chart-summary').innerText();

describe('Dashboard and replies in Chromium', () => {
  it('a reply shows in the report’s Replied filter and the Dashboard counts exactly the broadcast', async () => {
    // The sandbox delivers all three (and reads some): wait until nothing is on its way.
    await expect
      .poll(
        async () => {
          const { outcomes } = await report();
          return outcomes.delivered + outcomes.read;
        },
        { timeout: 60_000, interval: 500 },
      )
      .toBe(3);

    // Guest 0 answers the broadcast (within 24 hours, no context: linked by the 24-hour rule).
    const inbound = await fetch(`${stack.sandboxUrl}/__sandbox/inbound`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ phone_number_id: phoneNumberId, from: GUESTS[0], text: 'Yes, count me in' }),
    });
    expect(inbound.status).toBe(200);
    await expect.poll(async () => (await report()).replied, { timeout: 30_000, interval: 500 }).toBe(1);
    // Reads may still arrive: settle on two equal answers a second apart.
    let read = -1;
    await expect
      .poll(
        async () => {
          const before = read;
          read = (await report()).outcomes.read;
          return read === before;
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toBe(true);

    // The report: the Replied filter with its count, the reply's text, the reply rate.
    await page.goto(`${stack.url}/broadcast/${broadcastId}`);
    await page.getByRole('heading', { name: 'Delivery Report: Figures launch' }).waitFor();
    const filters = page.getByRole('group', { name: 'Filter by outcome' });
    await filters.getByRole('button', { name: 'Replied · 1' }).click();
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'Guest' }).count()).toBe(1);
    const replied = page.getByRole('row').filter({ hasText: 'Guest 0' });
    expect(await replied.innerText()).toContain('“Yes, count me in”');
    expect(await page.getByText(/^Reply rate:/).innerText()).toBe(
      'Reply rate: 33.3% (1 of 3 delivered replied)',
    );

    // The Dashboard: exactly these figures (today is in the default range, in the browser's time zone).
    await page.getByRole('link', { name: 'Dashboard' }).first().click();
    await page.getByRole('list', { name: 'Metrics' }).waitFor();
    expect(await cardValue('Total Messages')).toBe('3');
    expect(await cardValue('Delivery Rate')).toBe('100%');
    const readRate = Math.round((read / 3) * 1000) / 10;
    expect(await cardValue('Read Rate')).toBe(`${readRate}%`);
    expect(await cardValue('Response Rate')).toBe('33.3%');
    expect(await cardValue('Engagement Rate')).toBe('33.3%');
    expect(await cardValue('Failed Messages')).toBe('0');
    expect(await cardValue('Active Contacts')).toBe('3');
    expect(await cardValue('Avg. Response Time')).toMatch(/^\d+(m \d+)?s$/);
    // The definition is the card's tooltip.
    expect(await card('Response Rate').getAttribute('title')).toContain('replied within 24 hours');

    expect(await chartSummary('Message Overview')).toBe(`3 sent, 3 delivered, ${read} read`);
    expect(await chartSummary('Message Types')).toBe('Marketing 3');
    expect(await chartSummary('Engagement Rate')).toBe('1 of 3 delivered engaged');
    expect(await chartSummary('Response Time')).toMatch(/^1 reply, /);
    for (const title of ['Message Overview', 'Message Types', 'Engagement Rate', 'Response Time'])
      expect(await page.getByRole('figure', { name: title }).locator('.recharts-wrapper').count()).toBe(1);
    const activity = page.getByRole('region', { name: 'Recent Activity' });
    expect(await activity.getByRole('link', { name: 'Figures launch' }).getAttribute('href')).toBe(
      `/broadcast/${broadcastId}`,
    );
    // The Customers badge is the contact count.
    expect(
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: /^Customers/ })
        .innerText(),
    ).toMatch(/Customers\s*3/);
    await page.screenshot({ path: `${SHOTS}/dashboard-1280.png`, fullPage: true });

    // Export Data downloads the daily figures.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export Data' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^herald-dashboard-.*\.csv$/);

    // A phone: the cards stack in one column and the charts fit the width.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.getByRole('list', { name: 'Metrics' }).waitFor();
    const boxes = await Promise.all(
      ['Total Messages', 'Delivery Rate'].map(async (title) => (await card(title).boundingBox())!),
    );
    expect(boxes[1]!.y).toBeGreaterThan(boxes[0]!.y + boxes[0]!.height - 1);
    const chart = (await page.getByRole('figure', { name: 'Message Overview' }).boundingBox())!;
    expect(chart.x + chart.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/dashboard-390.png`, fullPage: true });
  });

  it('a brand-new account’s Dashboard shows the eight cards at zero and the four charts under a no-data note', async () => {
    const fresh = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await signInViaUi(fresh, stack, 'fresh@shop.test', PASSWORD);
    await fresh.getByRole('region', { name: 'No data yet' }).waitFor();
    const metrics = fresh.getByRole('list', { name: 'Metrics' }).getByRole('listitem');
    expect(await metrics.count()).toBe(8);
    // Counts read 0; a rate with nothing sent reads '—', never an invented 0 %.
    const values = await metrics.evaluateAll((items) => items.map((item) => item.children[1]?.textContent));
    expect(values.every((value) => value === '0' || value === '—')).toBe(true);
    expect(values).toContain('0');
    expect(await fresh.getByRole('figure').count()).toBe(4);
    await fresh.screenshot({ path: `${SHOTS}/dashboard-empty.png`, fullPage: true });
  });
});
