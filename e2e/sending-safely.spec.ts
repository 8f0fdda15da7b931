import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, SCREENSHOT_DIR } from './support/browser';
import { recordBrowserTrouble, signInViaUi } from './support/session';
import { startStack, type Stack } from './support/stack';
import { closeAfterAll, printCluesOnFailure } from './support/spec-hooks';
import { apiLogin, createApprovedTemplate, importContacts, signUpViaApi } from '../test-support/business';

// In Chromium: a send confirmed in a dialog (Cancel sends nothing), a test message to a
// typed number, and a new broadcast to a finished broadcast's non-readers, opened from the retarget URL.
let stack: Stack;
let browser: Browser;
let page: Page;
let trouble: string[];
let token: string;

const EMAIL = 'safely@shop.test';
const PASSWORD = 'correct horse battery';
const NUMBERS = Array.from({ length: 8 }, (_, i) => `+4479111230${10 + i}`);

type SandboxLog = { total: number; data: Array<{ to: string; wamid: string; template: { name: string } }> };
const sandboxLog = async () =>
  (await (await fetch(`${stack.sandboxUrl}/__sandbox/messages?limit=500`)).json()) as SandboxLog;
const api = async <T>(path: string) =>
  (await (await fetch(`${stack.url}${path}`, { headers: { authorization: `Bearer ${token}` } })).json()) as T;
const broadcasts = () =>
  api<{ count: number; results: Array<{ id: number; name: string; status: string }> }>('/broadcast/create/');

beforeAll(async () => {
  stack = await startStack({ env: { SANDBOX_REVIEW_DELAY_MS: '300' } });
  await signUpViaApi(stack, EMAIL, PASSWORD, 'Safe Shop');
  token = await apiLogin(stack, EMAIL, PASSWORD);
  const rows = NUMBERS.map((number, i) => `Guest ${i},${number}`).join('\n');
  await importContacts(stack, token, `name,number\n${rows}\n`, 'Imported');
  for (const [name, text] of [
    ['order_update', 'Hello {{1}}, your order is on its way.'],
    ['second_chance', 'Hello {{1}}, did you see our news?'],
  ]) {
    await createApprovedTemplate(stack, token, {
      name,
      language: 'en_US',
      category: 'UTILITY',
      components: [{ type: 'BODY', text }],
      dynamic_variables: { body_variable: { '1': 'name' } },
    });
  }
  // Some recipients read, some do not: the non-readers are the retarget's audience.
  await fetch(`${stack.sandboxUrl}/__sandbox/config`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ read_rate: 0.3, status_delays_ms: { sent: 50, delivered: 150, read: 300 } }),
  });
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1440, height: 1000 } })).newPage();
  page.setDefaultTimeout(20_000);
  trouble = recordBrowserTrouble(page);
  await signInViaUi(page, stack, EMAIL, PASSWORD);
});

printCluesOnFailure(() => ({ stack, trouble, page }));
closeAfterAll(() => ({ browser, stack }));

async function openNewBroadcast(url = `${stack.url}/broadcast/new`) {
  await page.goto(url);
  await page.getByRole('option', { name: 'order_update (en_US)' }).waitFor({ state: 'attached' });
}

async function chooseTemplate(name: string) {
  await page.getByRole('combobox', { name: 'Message Template' }).selectOption({ label: `${name} (en_US)` });
}

/** Waits until the sandbox has sent every status and Herald has applied them (no pending message left). */
async function settled(id: number) {
  // The sandbox has sent every status, and Herald's figures have stopped moving (the last webhooks may still be
  // on their way when the sandbox has none left to send).
  let previous = '';
  await expect
    .poll(
      async () => {
        const state = (await (await fetch(`${stack.sandboxUrl}/__sandbox/state`)).json()) as {
          messaging: { pending_statuses: number };
        };
        const report = await api<{ outcomes: Record<string, number> }>(`/broadcast/${id}/recipients/`);
        const figures = JSON.stringify(report.outcomes);
        const still = figures === previous;
        previous = figures;
        return state.messaging.pending_statuses === 0 && report.outcomes.pending === 0 && still;
      },
      { timeout: 30_000, interval: 500 },
    )
    .toBe(true);
}

describe('sending safely in Chromium', () => {
  it('sends a test to a typed number and shows the result; it is not a broadcast', async () => {
    await openNewBroadcast();
    await chooseTemplate('order_update');
    await page.getByRole('button', { name: 'Send test' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send a test message' });
    await dialog.getByRole('textbox', { name: /Send the test to/ }).fill('+447911123456');
    await dialog.getByText(/^The first contact, Guest \d, as in the preview\.$/).waitFor();
    await dialog.getByRole('button', { name: 'Send test' }).click();
    await dialog.getByText('Accepted by WhatsApp: the test is on its way to +447911123456.').waitFor();
    const wamid = (await dialog.getByText(/^Message id: /).innerText()).replace('Message id: ', '');
    await page.screenshot({ path: `${SCREENSHOT_DIR}/send-test-result.png` });

    const log = await sandboxLog();
    const sent = log.data.find((message) => message.wamid === wamid);
    expect(sent).toMatchObject({ to: '447911123456', template: { name: 'order_update' } });
    expect((await broadcasts()).count).toBe(0);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
  }, 120_000);

  it('asks before sending, naming the template, the count and “Now”; Cancel sends nothing; then sends', async () => {
    await openNewBroadcast();
    await page.getByRole('textbox', { name: 'Broadcast Name' }).fill('First wave');
    await chooseTemplate('order_update');
    await page.getByRole('tab', { name: 'All Contacts' }).click();
    await page.getByRole('slider', { name: 'Percentage of recipients' }).fill('100');
    await expect
      .poll(() => page.getByRole('status', { name: 'Messaging limit' }).innerText())
      .toMatch(/^8 recipients/);
    const before = (await sandboxLog()).total;

    await page.getByRole('button', { name: 'Send Broadcast' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send this broadcast now?' });
    expect(await dialog.getByTestId('confirm-template').innerText()).toBe('order_update');
    expect(await dialog.getByTestId('confirm-recipients').innerText()).toBe('8');
    expect(await dialog.getByTestId('confirm-sending-time').innerText()).toBe('Now');
    await page.screenshot({ path: `${SCREENSHOT_DIR}/confirm-send.png` });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect((await broadcasts()).count).toBe(0);
    expect((await sandboxLog()).total).toBe(before);

    await page.getByRole('button', { name: 'Send Broadcast' }).click();
    await dialog.getByRole('button', { name: 'Send Broadcast' }).click();
    await page.getByText('Broadcast created successfully!').first().waitFor();
    await page.waitForURL(`${stack.url}/broadcast`);
    await expect
      .poll(async () => (await broadcasts()).results.find((b) => b.name === 'First wave')?.status, {
        timeout: 30_000,
      })
      .toBe('completed');
    expect((await sandboxLog()).total).toBe(before + 8);
  }, 120_000);

  it('opens New broadcast from the retarget URL of the not-read filter and sends to exactly those recipients', async () => {
    const first = (await broadcasts()).results.find((b) => b.name === 'First wave')!;
    await settled(first.id);
    // Who did not read it, from its report: sent or delivered.
    const notRead: string[] = [];
    for (const outcome of ['sent', 'delivered']) {
      const report = await api<{ results: Array<{ whatsapp_number: string }> }>(
        `/broadcast/${first.id}/recipients/?outcome=${outcome}`,
      );
      notRead.push(...report.results.map((r) => r.whatsapp_number));
    }
    const read = await api<{ count: number }>(`/broadcast/${first.id}/recipients/?outcome=read`);
    expect(notRead.length + read.count).toBe(8);
    expect(notRead.length).toBeGreaterThan(0);

    await openNewBroadcast(`${stack.url}/broadcast/new?retarget=${first.id}&filter=not_read`);
    const line = `Recipients: ${notRead.length} from broadcast "First wave" (Not read)`;
    await page.getByRole('status', { name: 'Retarget recipients' }).getByText(line).waitFor();
    expect(await page.getByRole('tab', { name: 'All Contacts' }).count()).toBe(0);
    await page.getByRole('textbox', { name: 'Broadcast Name' }).fill('Second chance');
    await chooseTemplate('second_chance');
    await page.screenshot({ path: `${SCREENSHOT_DIR}/retarget-not-read.png` });
    await page.getByRole('button', { name: 'Send Broadcast' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send this broadcast now?' });
    expect(await dialog.getByTestId('confirm-recipients').innerText()).toBe(
      `${notRead.length} from broadcast "First wave" (Not read)`,
    );
    await dialog.getByRole('button', { name: 'Send Broadcast' }).click();
    await page.getByText('Broadcast created successfully!').first().waitFor();
    await page.waitForURL(`${stack.url}/broadcast`);
    await expect
      .poll(async () => (await broadcasts()).results.find((b) => b.name === 'Second chance')?.status, {
        timeout: 30_000,
      })
      .toBe('completed');

    const second = (await sandboxLog()).data.filter((message) => message.template.name === 'second_chance');
    expect(second.map((message) => `+${message.to}`).sort()).toEqual([...notRead].sort());
  }, 180_000);
});
