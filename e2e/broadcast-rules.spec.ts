import { mkdir } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser';
import { recordBrowserTrouble, signInViaUi } from './support/session';
import { startStack, type Stack } from './support/stack';
import { closeAfterAll, printCluesOnFailure } from './support/spec-hooks';
import { apiLogin, createApprovedTemplate, importContacts, signUpViaApi } from '../test-support/business';

// In Chromium: the number a broadcast sends from, the portfolio's 24-hour messaging limit, a template
// WhatsApp pauses, and the delivery report's reasons. The sandbox starts every portfolio at its smallest tier
// (250 users a day), so a 300-contact tag is larger than the limit.

let stack: Stack;
let browser: Browser;
let page: Page;
let trouble: string[];
let token: string;
let business: { waba_id: string; phone_number_id: string; business_id: string };
let second: { id: string; display_phone_number: string };

const EMAIL = 'rules@shop.test';
const PASSWORD = 'correct horse battery';
/** Screenshots a person looks at (390 px: a phone). */
const SHOTS = '/tmp/shots';

const sandbox = async <T>(path: string, body?: object): Promise<T> => {
  const response = await fetch(`${stack.sandboxUrl}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
};

const csv = (rows: string[]) => `name,number\n${rows.join('\n')}\n`;

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  stack = await startStack({
    env: { SANDBOX_REVIEW_DELAY_MS: '300', SANDBOX_DEFAULT_MESSAGING_LIMIT: 'TIER_250' },
  });
  const signedUp = await signUpViaApi(stack, EMAIL, PASSWORD, 'Rules Shop');
  // The portfolio (Meta's business) the account belongs to, whose limit the sandbox counts.
  const state = await sandbox<{ wabas: Array<{ id: string; business_id: string }> }>('/__sandbox/state');
  business = {
    ...signedUp,
    business_id: state.wabas.find((waba) => waba.id === signedUp.waba_id)!.business_id,
  };
  token = await apiLogin(stack, EMAIL, PASSWORD);
  // A second number to choose, and a third WhatsApp flagged, which cannot be chosen.
  second = await sandbox(`/__sandbox/wabas/${business.waba_id}/phone-numbers`, {
    phone_number: '+15550107777',
  });
  const flagged = await sandbox<{ id: string }>(`/__sandbox/wabas/${business.waba_id}/phone-numbers`, {
    phone_number: '+15550108888',
  });
  await sandbox(`/__sandbox/phone-numbers/${flagged.id}`, { status: 'FLAGGED' });

  await importContacts(stack, token, csv([1, 2, 3].map((i) => `Team ${i},+44791113000${i}`)), 'Team');
  // Three US numbers (a marketing template does not reach them: 131049), two UK ones, and one that is not on
  // WhatsApp (the sandbox's rule: digits ending in 0000, 131026).
  await importContacts(
    stack,
    token,
    csv([
      ...[1, 2, 3].map((i) => `Us ${i},+1628555300${i}`),
      'Uk 1,+447911140001',
      'Uk 2,+447911140002',
      'Nowhere,+447911120000',
    ]),
    'Mixed',
  );
  await importContacts(
    stack,
    token,
    csv(Array.from({ length: 300 }, (_, i) => `Many ${i},+4479111${String(50_001 + i)}`)),
    'Many',
  );
  await createApprovedTemplate(stack, token, {
    name: 'team_note',
    language: 'en_US',
    category: 'UTILITY',
    components: [{ type: 'BODY', text: 'Hello {{1}}, your order is on its way.' }],
    dynamic_variables: { body_variable: { '1': 'name' } },
  });
  await createApprovedTemplate(stack, token, {
    name: 'spring_offer',
    language: 'en_US',
    category: 'MARKETING',
    components: [{ type: 'BODY', text: 'Hello {{1}}, spring prices are here.' }],
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
const limitLine = () => page.getByRole('status', { name: 'Messaging limit' });

/** New broadcast with its template, a tag at 100 %, once the form's data has arrived. */
async function newBroadcast(name: string, template: string, tag: string) {
  await page.goto(`${stack.url}/broadcast/new`);
  await page.getByRole('option', { name: `${template} (en_US)` }).waitFor({ state: 'attached' });
  await page.getByRole('textbox', { name: 'Broadcast Name' }).fill(name);
  await page
    .getByRole('combobox', { name: 'Message Template' })
    .selectOption({ label: `${template} (en_US)` });
  await page.getByRole('checkbox', { name: tag, exact: true }).check();
  await page.getByRole('slider', { name: 'Percentage of recipients' }).fill('100');
}

async function send() {
  await page.getByRole('button', { name: 'Send Broadcast' }).click();
  // The send is confirmed in a dialog naming the template, the count and the time.
  await page.getByRole('dialog').getByRole('button', { name: 'Send Broadcast' }).click();
  await page.getByText('Broadcast created successfully!').first().waitFor();
  await page.waitForURL(`${stack.url}/broadcast`);
}

/** A full-page screenshot as a phone shows it, then back to the desktop size. */
async function phoneShot(file: string) {
  await page.setViewportSize({ width: 390, height: 844 });
  // The navigation slides off-screen below the md breakpoint: wait until it has gone, not mid-slide.
  await page.waitForFunction(
    () => (document.getElementById('main-navigation-drawer')?.getBoundingClientRect().right ?? 0) <= 0,
  );
  // Nothing may be wider than the phone: a control that overflows would be cut off or scroll sideways.
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  // From the top: scrolled, the sticky header would be drawn over the middle of a full-page capture.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS}/${file}`, fullPage: true });
  await page.setViewportSize({ width: 1440, height: 1000 });
  return overflow;
}

describe('broadcast rules in Chromium', () => {
  it('sends from the number chosen in Send from; a flagged one cannot be chosen', async () => {
    await newBroadcast('From the second number', 'team_note', 'Team');
    const sendFrom = page.getByRole('combobox', { name: 'Send from' });
    await expect.poll(() => sendFrom.locator('option').count()).toBe(3);
    // The first sendable number is the default; the flagged one is disabled and says why.
    expect(await sendFrom.inputValue()).toBe(business.phone_number_id);
    const options = await sendFrom
      .locator('option')
      .evaluateAll((all) =>
        all.map((o) => [(o as HTMLOptionElement).text, (o as HTMLOptionElement).disabled]),
      );
    expect(options.filter(([, disabled]) => disabled)).toHaveLength(1);
    expect(String(options.find(([, disabled]) => disabled)![0])).toContain('(cannot send)');
    await page
      .getByRole('list', { name: 'Numbers that cannot send' })
      .getByText(/WhatsApp flagged this number/)
      .waitFor();

    await sendFrom.selectOption(second.id);
    await send();
    const sent = row('From the second number');
    await expect.poll(() => sent.innerText(), { timeout: 30_000 }).toMatch(/Completed/i);
    expect(await sent.innerText()).toContain(`from ${second.display_phone_number}`);
    // The sandbox's call log: all three from the chosen number, none from the first.
    const fromSecond = await sandbox<{ total: number }>(
      `/__sandbox/messages?phone_number_id=${second.id}&limit=1`,
    );
    expect(fromSecond.total).toBe(3);
  });

  it('counts +1 numbers before a marketing broadcast, and the report groups why messages did not arrive', async () => {
    await newBroadcast('Spring to everyone', 'spring_offer', 'Mixed');
    await page
      .getByText(
        '3 recipients have +1 (US) numbers. WhatsApp does not deliver marketing templates to US numbers.',
      )
      .waitFor();
    expect(await page.getByRole('checkbox', { name: 'Leave them out' }).isChecked()).toBe(false);
    await expect
      .poll(() => limitLine().innerText())
      .toMatch(/^6 recipients · \d+ left in your 24-hour limit$/);
    expect(await phoneShot('new-broadcast-us-numbers-390.png')).toBe(0);
    await send();

    await expect.poll(() => row('Spring to everyone').innerText(), { timeout: 30_000 }).toMatch(/Completed/i);
    await row('Spring to everyone').getByRole('link', { name: 'Spring to everyone' }).click();
    const why = page.getByRole('region', { name: 'Why messages did not arrive' });
    const limited = why.getByRole('listitem').filter({ hasText: '131049' });
    await expect
      .poll(() => limited.innerText(), { timeout: 30_000 })
      .toMatch(/131049 · Limited by WhatsApp\s+3 recipients/);
    const notOnWhatsApp = why.getByRole('listitem').filter({ hasText: '131026' });
    await expect.poll(() => notOnWhatsApp.innerText()).toMatch(/131026 · Not on WhatsApp\s+1 recipient/);
    expect(await why.getByRole('listitem').count()).toBe(2);
    // Each reason says what to do.
    expect(await limited.innerText()).toContain('What to do:');

    const filters = page.getByRole('group', { name: 'Filter by outcome' });
    await filters.getByRole('button', { name: 'Limited by WhatsApp · 3' }).click();
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'Limited by WhatsApp' }).count()).toBe(3);
    expect(await phoneShot('delivery-report-390.png')).toBe(0);
  });

  it('sends exactly the count it shows: the figure sent, the Summary, the confirmation, the history and the sandbox agree', async () => {
    // 'Uk 2' writes STOP: opted out. With the three US numbers left out, two of the six 'Mixed' contacts are sent.
    const stop = await fetch(`${stack.sandboxUrl}/__sandbox/inbound`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        from: '+447911140002',
        text: 'STOP',
        phone_number_id: business.phone_number_id,
      }),
    });
    expect(stop.status).toBe(200);
    await expect
      .poll(
        async () => {
          const response = await fetch(`${stack.url}/recipient/create/?search=Uk%202`, {
            headers: { authorization: `Bearer ${token}` },
          });
          const body = (await response.json()) as { results: Array<{ opted_out_at?: string | null }> };
          return Boolean(body.results[0]?.opted_out_at);
        },
        { timeout: 30_000 },
      )
      .toBe(true);

    await newBroadcast('Spring, only who can get it', 'spring_offer', 'Mixed');
    await page.getByRole('checkbox', { name: 'Leave them out' }).check();
    // With tags, the left figure is the spec's "contacts in the selected tags"; the right one is who is sent.
    await expect
      .poll(() => page.locator('output[aria-label="Recipients after percentage"]').innerText())
      .toBe('2');
    expect(await page.getByText('1 tag, 100% (2)', { exact: true }).count()).toBe(1);
    await expect
      .poll(() => limitLine().innerText())
      .toMatch(/^2 recipients · \d+ left in your 24-hour limit$/);
    // Who is left out, and why, one click away.
    await page.getByText('4 chosen contacts left out').click();
    const reasons = page.locator('details', { hasText: '4 chosen contacts left out' }).getByRole('listitem');
    expect(await reasons.allInnerTexts()).toEqual([
      '1 has opted out of your broadcasts',
      '3 US numbers (+1): WhatsApp does not deliver marketing templates to them',
    ]);

    const mixed = [
      '16285553001',
      '16285553002',
      '16285553003',
      '447911140001',
      '447911140002',
      '447911120000',
    ];
    const requestsTo = async () =>
      Promise.all(
        mixed.map(
          async (to) => (await sandbox<{ total: number }>(`/__sandbox/messages?requested=1&to=${to}`)).total,
        ),
      );
    const before = await requestsTo();
    await page.getByRole('button', { name: 'Send Broadcast' }).click();
    const confirm = page.getByRole('dialog', { name: 'Send this broadcast now?' });
    expect(await confirm.getByTestId('confirm-recipients').innerText()).toBe('2');
    await confirm.getByRole('button', { name: 'Send Broadcast' }).click();
    await page.waitForURL(`${stack.url}/broadcast`);
    await expect
      .poll(() => row('Spring, only who can get it').innerText(), { timeout: 30_000 })
      .toMatch(/Completed/i);
    // The sandbox was asked for exactly the two shown: the UK number and the one not on WhatsApp.
    const after = await requestsTo();
    expect(after.map((total, i) => total - before[i]!)).toEqual([0, 0, 0, 1, 0, 1]);
    const history = await fetch(`${stack.url}/broadcast/create/`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const listed = ((await history.json()) as { results: Array<{ name: string; total_recipients: number }> })
      .results;
    expect(
      listed.find((broadcast) => broadcast.name === 'Spring, only who can get it')?.total_recipients,
    ).toBe(2);
  });

  it('warns of a broadcast larger than what is left of the limit, then shows it waiting in the history', async () => {
    await newBroadcast('Everyone at once', 'team_note', 'Many');
    await expect
      .poll(() => limitLine().innerText())
      .toMatch(/^300 recipients · \d+ left in your 24-hour limit$/);
    const left = Number(/· (\d+) left/.exec(await limitLine().innerText())![1]);
    expect(left).toBeLessThan(300);
    await page
      .getByText(
        `This broadcast would reach 300 new recipients, but only ${left} are left in your 24-hour messaging limit.`,
        { exact: false },
      )
      .waitFor();
    const spread = page.getByRole('checkbox', { name: /^Spread over the 24-hour limit/ });
    expect(await spread.isChecked()).toBe(true);
    expect(await phoneShot('new-broadcast-over-limit-390.png')).toBe(0);
    await send();

    const everyone = row('Everyone at once');
    await expect
      .poll(() => everyone.innerText(), { timeout: 60_000 })
      .toMatch(/Waiting for messaging limit — resumes about \d\d:\d\d/);
    expect(await everyone.innerText()).toMatch(/Sending/i);
    // Never past the limit: the sandbox counted at most 250 users reached in the window.
    const portfolio = await sandbox<{ reached_in_window: number }>(
      `/__sandbox/portfolios/${business.business_id}`,
    );
    expect(portfolio.reached_in_window).toBeLessThanOrEqual(250);
    await page.screenshot({ path: `${SHOTS}/history-waiting.png` });
  });

  it('shows a broadcast paused, with the reason, when WhatsApp pauses its template', async () => {
    const templates = (await (
      await fetch(`${stack.url}/meta/templates/?page_size=100`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { results: Array<{ template_name: string; template_id: string }> };
    const metaId = templates.results.find((t) => t.template_name === 'team_note')!.template_id;
    await sandbox(`/__sandbox/templates/${metaId}/status`, { status: 'PAUSED' });

    await page.goto(`${stack.url}/broadcast`);
    const everyone = row('Everyone at once');
    await expect.poll(() => everyone.innerText(), { timeout: 30_000 }).toMatch(/Paused/);
    expect(await everyone.innerText()).toContain('WhatsApp paused the template team_note');
    await page.screenshot({ path: `${SHOTS}/history-paused.png` });
  });

  it("shows a marketing template's time-to-live on New broadcast, and a message it outlives as Expired", async () => {
    const id = await createApprovedTemplate(stack, token, {
      name: 'flash_offer',
      language: 'en_US',
      category: 'MARKETING',
      components: [{ type: 'BODY', text: 'Hello {{1}}, the flash offer ends tonight.' }],
      dynamic_variables: { body_variable: { '1': 'name' } },
      message_send_ttl_seconds: 86_400,
    });
    // The edit page shows the template's own time-to-live.
    await page.goto(`${stack.url}/templates/${id}`);
    await expect
      .poll(() => page.getByLabel('Message time-to-live').inputValue(), { timeout: 20_000 })
      .toBe('86400');
    await page.screenshot({ path: `${SHOTS}/edit-template-time-to-live.png` });

    // Team 1's phone is off: WhatsApp keeps the message undelivered.
    await sandbox('/__sandbox/recipients/447911130001', { reachable: false });
    await newBroadcast('Flash offer', 'flash_offer', 'Team');
    const ttl = page.getByRole('note', { name: 'Time-to-live' });
    expect(await ttl.innerText()).toMatch(
      /^Time-to-live: 1 day\. WhatsApp drops a message it could not deliver/,
    );
    expect(await phoneShot('new-broadcast-time-to-live-390.png')).toBe(0);
    await send();
    await expect.poll(() => row('Flash offer').innerText(), { timeout: 30_000 }).toMatch(/Completed/i);

    // A day later (the sandbox's clock) WhatsApp drops it: Expired, not Failed.
    expect(await sandbox('/__sandbox/clock', { advance_seconds: 86_400 })).toMatchObject({ expired: 1 });
    await row('Flash offer').getByRole('link', { name: 'Flash offer' }).click();
    const filters = page.getByRole('group', { name: 'Filter by outcome' });
    await expect
      .poll(
        async () => {
          await page.reload();
          // The counts arrive with the report: wait for them before looking.
          await filters.getByRole('button', { name: /^Read · \d+$/ }).waitFor();
          return filters.getByRole('button', { name: 'Expired · 1' }).count();
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toBe(1);
    await filters.getByRole('button', { name: 'Expired · 1' }).click();
    const expired = page.getByRole('row').filter({ hasText: 'Expired' });
    await expect.poll(() => expired.count()).toBe(1);
    expect(await expired.innerText()).toContain('+44 7911 130001');
    const why = page.getByRole('region', { name: 'Why messages did not arrive' });
    expect(await why.innerText()).toMatch(/Expired\s+1 recipient/);
    expect(await phoneShot('report-expired-390.png')).toBe(0);

    // The history says it beside Failed, and the Dashboard under Failed Messages, which does not count it.
    await page.goto(`${stack.url}/broadcast`);
    await expect.poll(() => row('Flash offer').innerText()).toMatch(/\+33\.3% expired/);
    await page.screenshot({ path: `${SHOTS}/history-expired.png` });
    await page.goto(`${stack.url}/dashboard`);
    await expect.poll(() => page.getByTestId('expired-line').innerText()).toMatch(/^Expired: 1/);
    await page.screenshot({ path: `${SHOTS}/dashboard-expired.png`, fullPage: true });
  });
});
