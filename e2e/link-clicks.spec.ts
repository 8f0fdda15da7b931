import { mkdir } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BroadcastReport, LinkSettingsResponse } from '@herald/contracts';
import { seriousViolations } from './support/axe';
import { launchBrowser } from './support/browser';
import { recordBrowserTrouble, signInViaUi } from './support/session';
import { sharedStack } from './support/shared-stack';
import type { StackView } from './support/stack';
import { closeAfterAll, printCluesOnFailure } from './support/spec-hooks';
import { newBroadcastSettled } from './support/new-broadcast';
import { apiLogin, createApprovedTemplate, importContacts, signUpViaApi } from '../test-support/business';

// In Chromium: a marketing broadcast whose template has a tracked link button. New broadcast asks where the link
// leads; a person taps the button (the sandbox plays WhatsApp: Meta's click webhook and the URL their browser
// opens) and this browser opens that URL, landing on the destination; the report shows who clicked (column,
// filter, click rate), the history its Click %, the Dashboard its click figure; "New broadcast to those who did
// not click" reaches exactly the two who did not (the sandbox's call log).

const SHOTS = '/tmp/shots';
const PASSWORD = 'correct horse battery';
const PEOPLE = ['+447911123601', '+447911123602', '+447911123603'];

let stack: StackView;
let browser: Browser;
let page: Page;
let trouble: string[];
let token: string;
let phoneNumberId: string;
let destination: string;

async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${stack.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

async function sandbox<T>(path: string, body?: object): Promise<T> {
  const response = await fetch(`${stack.sandboxUrl}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

type Logged = { wamid: string; to: string; template?: { name: string }; endpoint: string };
const sentBy = async (template: string) =>
  (await sandbox<{ data: Logged[] }>(`/__sandbox/messages?phone_number_id=${phoneNumberId}`)).data.filter(
    (m) => m.template?.name === template,
  );

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  stack = await sharedStack({ SANDBOX_REVIEW_DELAY_MS: '300', SANDBOX_US_MARKETING_RULE: 'false' });
  const business = await signUpViaApi(stack, 'clicks@shop.test', PASSWORD, 'Click Shop');
  phoneNumberId = business.phone_number_id;
  token = await apiLogin(stack, 'clicks@shop.test', PASSWORD);
  const rows = PEOPLE.map((number, i) => `Shopper ${i + 1},${number}`).join('\n');
  await importContacts(stack, token, `name,number\n${rows}\n`, 'Shoppers');
  const links = await api<LinkSettingsResponse>('/broadcast/links/');
  // Where the link leads: a page of this stack, so the browser lands somewhere real without the internet.
  destination = `${stack.url}/healthz?utm_source=whatsapp`;
  await createApprovedTemplate(stack, token, {
    name: 'click_sale',
    language: 'en_US',
    category: 'MARKETING',
    components: [
      { type: 'BODY', text: 'Our autumn sale starts today.' },
      {
        type: 'BUTTONS',
        buttons: [{ type: 'URL', text: 'Shop now', url: links.tracked_button_url, example: ['abc123'] }],
      },
    ],
  });
  await createApprovedTemplate(stack, token, {
    name: 'second_chance',
    language: 'en_US',
    category: 'MARKETING',
    components: [{ type: 'BODY', text: 'Still thinking about it? The sale ends Sunday.' }],
  });
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  page.setDefaultTimeout(20_000);
  trouble = recordBrowserTrouble(page);
});

printCluesOnFailure(() => ({ stack, trouble, page }));
closeAfterAll(() => ({ browser }));

describe('who clicked, in Chromium', () => {
  it('asks where the tracked link leads, counts a person’s click once, and shows it in the report, history and Dashboard', async () => {
    await signInViaUi(page, stack, 'clicks@shop.test', PASSWORD);
    await page.goto(`${stack.url}/broadcast/new`);
    await page.getByRole('option', { name: 'click_sale (en_US)' }).waitFor({ state: 'attached' });
    await page.getByRole('textbox', { name: 'Broadcast Name' }).fill('Autumn sale');
    await page
      .getByRole('combobox', { name: 'Message Template' })
      .selectOption({ label: 'click_sale (en_US)' });
    await page.getByRole('checkbox', { name: 'Shoppers' }).check();
    await page.getByRole('slider', { name: 'Percentage of recipients' }).fill('100');
    const field = page.getByRole('textbox', { name: 'Link destination' });
    await field.waitFor();
    // Without a destination the broadcast is not sent: the field says why.
    await page.getByRole('button', { name: 'Send Broadcast' }).click();
    await page.getByText('Enter where the tracked link leads').first().waitFor();
    await field.fill(destination);
    await newBroadcastSettled(page);
    await page.screenshot({ path: `${SHOTS}/clicks-new-broadcast.png`, fullPage: true });
    await page.getByRole('button', { name: 'Send Broadcast' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Send Broadcast' }).click();
    await page.waitForURL(`${stack.url}/broadcast`);

    await expect.poll(async () => (await sentBy('click_sale')).length, { timeout: 30_000 }).toBe(3);
    const [first] = (await sentBy('click_sale')).sort((a, b) => a.to.localeCompare(b.to));
    // Sent through the Marketing Messages API (the business accepted its terms at sign-up): Meta reports clicks.
    expect(first!.endpoint).toBe('marketing_messages');

    // The first shopper taps Shop now twice; their browser (this one) opens the link each time.
    for (let tap = 0; tap < 2; tap += 1) {
      const click = await sandbox<{ url: string; click_id: string | null; webhook: boolean }>(
        `/__sandbox/messages/${first!.wamid}/clicks`,
        { component: 'cta' },
      );
      expect(click.webhook).toBe(true);
      const shopper = await browser.newPage();
      await shopper.goto(click.url);
      expect(shopper.url()).toBe(destination);
      await shopper.close();
    }

    const { results } = await api<{ results: Array<{ id: number; name: string }> }>('/broadcast/create/');
    const id = results.find((r) => r.name === 'Autumn sale')!.id;
    await expect
      .poll(async () => (await api<BroadcastReport>(`/broadcast/${id}/recipients/`)).clicked, {
        timeout: 20_000,
      })
      .toBe(1);

    // The history's Click %: one of three.
    await page.goto(`${stack.url}/broadcast`);
    const row = page.getByRole('row').filter({ hasText: 'Autumn sale' });
    await expect.poll(() => row.innerText(), { timeout: 30_000 }).toContain('33.3%');
    expect(await page.getByRole('columnheader', { name: 'Click %' }).count()).toBe(1);

    // The report: the Clicked column, the filters with their counts, the click rate.
    await row.getByRole('link', { name: 'Autumn sale' }).click();
    await page.getByRole('heading', { name: 'Delivery Report: Autumn sale' }).waitFor();
    const filters = page.getByRole('group', { name: 'Filter by outcome' });
    await expect
      .poll(() => filters.getByRole('button', { name: /^Clicked/ }).innerText())
      .toBe('Clicked · 1');
    await expect
      .poll(() => filters.getByRole('button', { name: /^Not clicked/ }).innerText())
      .toBe('Not clicked · 2');
    await expect.poll(() => page.getByText(/Click rate:/).innerText()).toMatch(/33\.3\s?%/);
    expect(await page.getByRole('columnheader', { name: 'Clicked' }).count()).toBe(1);
    await filters.getByRole('button', { name: /^Clicked/ }).click();
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'Shopper' }).count()).toBe(1);
    expect(await page.getByRole('row').filter({ hasText: 'Shopper 1' }).count()).toBe(1);
    await page.screenshot({ path: `${SHOTS}/clicks-report.png`, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);

    // The Dashboard: the click figure under Engagement Rate.
    await page.goto(`${stack.url}/dashboard`);
    await expect.poll(() => page.getByText(/^Clicked: 1/).count()).toBe(1);
    await page.screenshot({ path: `${SHOTS}/clicks-dashboard.png`, fullPage: true });

    // "New broadcast to those who did not click": the two others, and only them, get the follow-up.
    await page.goto(`${stack.url}/broadcast/${id}`);
    await page.getByRole('heading', { name: 'Delivery Report: Autumn sale' }).waitFor();
    await page.getByRole('link', { name: 'New broadcast to those who did not click' }).click();
    await page.getByRole('heading', { level: 1, name: 'New Broadcast' }).waitFor();
    await page.getByRole('option', { name: 'second_chance (en_US)' }).waitFor({ state: 'attached' });
    await page.getByRole('textbox', { name: 'Broadcast Name' }).fill('Second chance');
    await page
      .getByRole('combobox', { name: 'Message Template' })
      .selectOption({ label: 'second_chance (en_US)' });
    await newBroadcastSettled(page);
    await page.getByRole('button', { name: 'Send Broadcast' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Send Broadcast' }).click();
    await page.waitForURL(`${stack.url}/broadcast`);
    await expect.poll(async () => (await sentBy('second_chance')).length, { timeout: 30_000 }).toBe(2);
    const followedUp = (await sentBy('second_chance')).map((m) => `+${m.to}`).sort();
    expect(followedUp).toEqual(PEOPLE.filter((p) => p !== `+${first!.to}`).sort());
  });
});
