import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BroadcastReport } from '@herald/contracts';
import { launchBrowser, SCREENSHOT_DIR } from './support/browser';
import { recordBrowserTrouble, signInViaUi } from './support/session';
import { closeAfterAll, printCluesOnFailure } from './support/spec-hooks';
import { sharedStack } from './support/shared-stack';
import type { StackView } from './support/stack';
import { apiLogin, createApprovedTemplate, importContacts, signUpViaApi } from '../test-support/business';

/**
 * In Chromium, what WhatsApp tells a business by webhook (sent by the sandbox in Meta's shapes): a template
 * re-categorised from utility to marketing changes New broadcast's estimate; a customer who changes number and
 * then replies stays one contact, at the new number, and the reply shows on their row of the report; a ban
 * shows its banner and pauses the broadcast that was sending.
 */
let stack: StackView;
let browser: Browser;
let page: Page;
let trouble: string[];
let token: string;
let phoneNumberId: string;

const EMAIL = 'account-events@shop.test';
const PASSWORD = 'correct horse battery';
const MOVER = '+447911123501';
const MOVED_TO = '+447911123599';
// Enough recipients that the broadcast is still sending (at the number's 80 messages a second) when the ban comes.
const CROWD = Array.from({ length: 600 }, (_, i) => `+4479111${String(30_000 + i).padStart(5, '0')}`);

async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${stack.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Sends one of the sandbox's webhook examples for this business's number. */
async function webhookEvent(event: string, params: Record<string, string> = {}) {
  const response = await fetch(`${stack.sandboxUrl}/__sandbox/webhook-events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ event, phone_number_id: phoneNumberId, ...params }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

async function createBroadcast(name: string, templateId: number, tag: string): Promise<number> {
  const tags = await api<Array<{ id: number; name: string }>>('/recipient/tags/');
  const created = await api<{ id: number }>('/broadcast/create/', {
    method: 'POST',
    body: JSON.stringify({
      name,
      template_id: templateId,
      recipients: { type: 'filtered', tag_ids: [tags.find((t) => t.name === tag)!.id], percentage: 100 },
    }),
  });
  return created.id;
}

const report = (id: number) => api<BroadcastReport>(`/broadcast/${id}/recipients/`);

let marketingTemplate: number;

beforeAll(async () => {
  stack = await sharedStack({ SANDBOX_REVIEW_DELAY_MS: '300', SANDBOX_US_MARKETING_RULE: 'false' });
  phoneNumberId = (await signUpViaApi(stack, EMAIL, PASSWORD, 'Events Shop')).phone_number_id;
  token = await apiLogin(stack, EMAIL, PASSWORD);
  await importContacts(stack, token, `name,number\nMover,${MOVER}\n`, 'Movers');
  await importContacts(
    stack,
    token,
    `name,number\n${CROWD.map((n, i) => `Guest ${i},${n}`).join('\n')}\n`,
    'Crowd',
  );
  await createApprovedTemplate(stack, token, {
    name: 'order_update',
    language: 'en_US',
    category: 'UTILITY',
    components: [{ type: 'BODY', text: 'Hello {{1}}, your order has shipped.' }],
    dynamic_variables: { body_variable: { '1': 'name' } },
  });
  marketingTemplate = await createApprovedTemplate(stack, token, {
    name: 'crowd_offer',
    language: 'en_US',
    category: 'MARKETING',
    components: [
      { type: 'BODY', text: 'Hello {{1}}, an offer for you.' },
      { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Yes please' }] },
    ],
    dynamic_variables: { body_variable: { '1': 'name' } },
  });
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1440, height: 1000 } })).newPage();
  page.setDefaultTimeout(20_000);
  trouble = recordBrowserTrouble(page);
  await signInViaUi(page, stack, EMAIL, PASSWORD);
});

printCluesOnFailure(() => ({ stack, trouble, page }));
closeAfterAll(() => ({ browser }));

describe('what WhatsApp tells a business by webhook, in Chromium', () => {
  it('a template re-categorised as marketing is estimated at marketing rates', async () => {
    const estimate = page.getByRole('status', { name: 'Estimated cost' });
    const estimateFor = async () => {
      await page.goto(`${stack.url}/broadcast/new`);
      await page.getByRole('option', { name: 'order_update (en_US)' }).waitFor({ state: 'attached' });
      await page.getByRole('textbox', { name: 'Broadcast Name' }).fill('Order news');
      await page
        .getByRole('combobox', { name: 'Message Template' })
        .selectOption({ label: 'order_update (en_US)' });
      await page.getByRole('checkbox', { name: 'Movers' }).check();
      await page.getByRole('slider', { name: 'Percentage of recipients' }).fill('100');
    };
    await estimateFor();
    // One UK recipient at Herald's card (2025-07-01): utility 0.022, marketing 0.0529.
    await expect
      .poll(() => estimate.innerText())
      .toBe('Estimated cost: $0.022 for 1 recipient at utility rates');

    await webhookEvent('template_category_update:done', { template_name: 'order_update' });
    await expect
      .poll(
        async () => {
          await estimateFor();
          return estimate.innerText();
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toBe('Estimated cost: $0.0529 for 1 recipient at marketing rates');
    await page.screenshot({ path: `${SCREENSHOT_DIR}/estimate-after-recategorisation.png` });
  });

  it('a customer who changed number and replies stays one contact, with the reply on their report row', async () => {
    const id = await createBroadcast('Mover offer', marketingTemplate, 'Movers');
    await expect
      .poll(
        async () => {
          const { outcomes } = await report(id);
          return outcomes.delivered + outcomes.read;
        },
        { timeout: 60_000, interval: 500 },
      )
      .toBe(1);
    // The wamid of the offer Meta accepted, as the customer's button press will name it (the sandbox's log).
    const sent = (await (
      await fetch(
        `${stack.sandboxUrl}/__sandbox/messages?phone_number_id=${phoneNumberId}&to=${MOVER.slice(1)}`,
      )
    ).json()) as { data: Array<{ wamid: string }> };
    const wamid = sent.data[0]?.wamid;
    expect(wamid).toBeTruthy();

    await webhookEvent('messages:system user_changed_number', {
      from: MOVER.slice(1),
      new_number: MOVED_TO.slice(1),
    });
    // The customer answers the offer from the new number, pressing its button.
    const inbound = await fetch(`${stack.sandboxUrl}/__sandbox/inbound`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        phone_number_id: phoneNumberId,
        from: MOVED_TO,
        button_payload: 'Yes please',
        context_id: wamid,
      }),
    });
    expect(inbound.status).toBe(200);
    await expect.poll(async () => (await report(id)).replied, { timeout: 30_000, interval: 500 }).toBe(1);

    await page.goto(`${stack.url}/broadcast/${id}`);
    await page.getByRole('heading', { name: 'Delivery Report: Mover offer' }).waitFor();
    await page
      .getByRole('group', { name: 'Filter by outcome' })
      .getByRole('button', { name: 'Replied · 1' })
      .click();
    const row = page.getByRole('row').filter({ hasText: 'Mover' });
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
    expect(await row.innerText()).toContain('Yes please');

    await page.getByRole('link', { name: 'Customers' }).click();
    await page.getByRole('button', { name: 'Add New Contact' }).waitFor();
    await page.getByPlaceholder('Search by name, number or email').fill('Mover');
    const customer = page.getByRole('row').filter({ hasText: 'Mover' });
    // The search answers after its debounce and a request: a loaded machine takes seconds.
    await expect.poll(() => customer.count(), { timeout: 15_000 }).toBe(1);
    // Shown as +44 7911 123599.
    expect(await customer.innerText()).toContain('7911 123599');
    expect(await customer.innerText()).not.toContain('7911 123501');
    await page.screenshot({ path: `${SCREENSHOT_DIR}/customer-after-number-change.png` });
  });

  it('a ban shows its banner on every screen and pauses the broadcast that was sending', async () => {
    const id = await createBroadcast('Crowd offer', marketingTemplate, 'Crowd');
    // Sending, with some messages out and most still to go.
    await expect
      .poll(
        async () => {
          const { outcomes } = await report(id);
          return outcomes.delivered + outcomes.read + outcomes.sent;
        },
        { timeout: 30_000, interval: 100 },
      )
      .toBeGreaterThan(0);
    await webhookEvent('account_update:DISABLED_UPDATE');
    const history = () =>
      api<{ results: Array<{ id: number; status: string; status_reason: string | null }> }>(
        '/broadcast/create/',
      );
    await expect
      .poll(async () => (await history()).results.find((b) => b.id === id)?.status, { timeout: 15_000 })
      .toBe('paused');
    const paused = (await history()).results.find((b) => b.id === id)!;
    expect(paused.status_reason).toBe(
      'WhatsApp disabled this business account: nothing can be sent until WhatsApp reinstates it',
    );
    const { outcomes } = await report(id);
    expect(outcomes.delivered + outcomes.read + outcomes.sent + outcomes.failed).toBeLessThan(CROWD.length);

    for (const screen of ['/broadcast', '/customers', '/template', '/number']) {
      await page.goto(`${stack.url}${screen}`);
      const banner = page.getByRole('alert', { name: 'WhatsApp account status' });
      await banner.waitFor();
      expect(await banner.innerText()).toMatch(
        /Sending has stopped[\s\S]*WhatsApp disabled this business account/,
      );
    }
    await page.goto(`${stack.url}/broadcast`);
    const row = page.getByRole('row').filter({ hasText: 'Crowd offer' });
    await expect.poll(() => row.innerText()).toContain('Paused');
    await page.screenshot({ path: `${SCREENSHOT_DIR}/banned-account.png` });

    // Reinstated: the banner goes; the broadcast stays paused until the user resumes it.
    await webhookEvent('account_update:DISABLED_UPDATE REINSTATE');
    await expect
      .poll(
        async () => {
          await page.reload();
          await page.getByRole('row').filter({ hasText: 'Crowd offer' }).waitFor();
          return page.getByRole('alert', { name: 'WhatsApp account status' }).count();
        },
        { timeout: 15_000, interval: 500 },
      )
      .toBe(0);
    expect((await history()).results.find((b) => b.id === id)?.status).toBe('paused');
  });
});
