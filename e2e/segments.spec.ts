import { mkdir } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BroadcastReport } from '@herald/contracts';
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

// In Chromium: a segment built in Customers → Segments from three kinds of rules in two groups (a tag and a
// country, then "never replied"), each ruling someone out; its live count tells matching from reachable (one
// member wrote STOP); Customers filtered by it lists its members; New broadcast's Segment tab names its rules;
// the report names them too, and the sandbox's call log shows that exactly the reachable members got it.

const SHOTS = '/tmp/shots';
const PASSWORD = 'correct horse battery';
const REGULARS = [
  { name: 'Regular 1', number: '+447911124001' },
  { name: 'Regular 2', number: '+447911124002' },
  { name: 'Regular 3', number: '+447911124003' },
  // Replies to the first broadcast: out by the activity rule.
  { name: 'Regular 4', number: '+447911124004' },
  // Writes STOP: a member who cannot be messaged.
  { name: 'Regular 5', number: '+447911124005' },
  // Germany: out by the country rule.
  { name: 'Regular 6', number: '+4915123456706' },
];
// The United Kingdom without the tag: out by the tags rule.
const WALK_INS = [
  { name: 'Walk-in 1', number: '+447911124007' },
  { name: 'Walk-in 2', number: '+447911124008' },
];
const MEMBERS = ['Regular 1', 'Regular 2', 'Regular 3', 'Regular 5'];
const REACHED = REGULARS.slice(0, 3).map((person) => person.number);
const RULES = [
  'All of: Tags: any of “Regulars”; Country or region: United Kingdom',
  'AND Never replied to a broadcast',
];

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

async function inbound(from: string, text: string): Promise<void> {
  const response = await fetch(`${stack.sandboxUrl}/__sandbox/inbound`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ phone_number_id: phoneNumberId, from, text }),
  });
  if (response.status !== 200) throw new Error(`inbound: ${response.status} ${await response.text()}`);
}

/** Waits until `done` answers true; expect.poll is for tests, and this runs before them. */
async function until(what: string, done: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen in time`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  stack = await sharedStack({ SANDBOX_REVIEW_DELAY_MS: '300' });
  const business = await signUpViaApi(stack, 'segments@shop.test', PASSWORD, 'Segment Shop');
  phoneNumberId = business.phone_number_id;
  token = await apiLogin(stack, 'segments@shop.test', PASSWORD);
  const csv = (people: typeof REGULARS) =>
    `name,number\n${people.map((person) => `${person.name},${person.number}`).join('\n')}\n`;
  await importContacts(stack, token, csv(REGULARS), 'Regulars');
  await importContacts(stack, token, csv(WALK_INS), 'Walk-ins');
  const note = await createApprovedTemplate(stack, token, {
    name: 'visit_note',
    language: 'en_US',
    category: 'UTILITY',
    components: [{ type: 'BODY', text: 'Thanks for your visit.' }],
  });
  await createApprovedTemplate(stack, token, {
    name: 'regulars_offer',
    language: 'en_US',
    category: 'MARKETING',
    components: [{ type: 'BODY', text: 'A thank-you offer for our regulars.' }],
  });

  // Regular 5 opts out before anything is sent, so their STOP answers no broadcast.
  await inbound(REGULARS[4]!.number, 'STOP');
  await until('Regular 5 opting out', async () =>
    Boolean(
      (
        await api<{ results: Array<{ opted_out_at?: string | null }> }>(
          '/recipient/create/?search=Regular%205',
        )
      ).results[0]?.opted_out_at,
    ),
  );
  // A first broadcast to everyone who can get it (all but Regular 5), then Regular 4 answers it.
  const first = await createBroadcast(stack, token, {
    name: 'Visit note',
    template_id: note,
    recipients: { type: 'all', percentage: 100 },
  });
  const report = () => api<BroadcastReport>(`/broadcast/${first}/recipients/`);
  // A reply is linked to a message Meta has reported on: wait until every one is delivered (or read).
  await until('the first broadcast being delivered', async () => {
    const { outcomes } = await report();
    return outcomes.delivered + outcomes.read === REGULARS.length + WALK_INS.length - 1;
  });
  await inbound(REGULARS[3]!.number, 'See you on Saturday');
  await until('the reply being linked', async () => (await report()).replied === 1);

  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  page.setDefaultTimeout(20_000);
  trouble = recordBrowserTrouble(page);
});

printCluesOnFailure(() => ({ stack, trouble, page }));
closeAfterAll(() => ({ browser }));

describe('segments, in Chromium', () => {
  it('builds a segment from three kinds of rules, filters Customers by it and sends to exactly its members', async () => {
    await signInViaUi(page, stack, 'segments@shop.test', PASSWORD);

    // Customers → Segments → New segment.
    await page.goto(`${stack.url}/customers`);
    await page.getByRole('link', { name: 'Segments', exact: true }).click();
    await page.waitForURL(`${stack.url}/customers/segments`);
    await page.getByText('No segments yet.').waitFor();
    await page.getByRole('button', { name: 'New segment' }).click();
    const builder = page.getByRole('region', { name: 'New segment' });
    await builder.getByRole('textbox', { name: 'Segment name' }).fill('Quiet regulars');

    // Group 1: tagged Regulars, in the United Kingdom.
    const first = builder.getByRole('region', { name: 'Group 1' });
    await first.getByRole('checkbox', { name: 'Regulars' }).check();
    await first.getByRole('button', { name: 'Add rule' }).click();
    const country = first.getByRole('group', { name: 'Rule 2' });
    await country.getByRole('combobox', { name: 'Rule' }).selectOption({ label: 'Country or region' });
    await country.getByRole('checkbox', { name: 'United Kingdom' }).check();

    // Group 2: never replied to a broadcast.
    await builder.getByRole('button', { name: 'Add group' }).click();
    const second = builder.getByRole('region', { name: 'Group 2' });
    const activity = second.getByRole('group', { name: 'Rule 1' });
    await activity.getByRole('combobox', { name: 'Rule' }).selectOption({ label: 'Broadcast activity' });
    await activity.getByRole('combobox', { name: 'Contact' }).selectOption({ label: 'has not' });
    await activity
      .getByRole('combobox', { name: 'Activity' })
      .selectOption({ label: 'replied to a broadcast' });
    expect(await builder.getByRole('combobox', { name: 'Groups' }).inputValue()).toBe('all');

    // Four match (Regular 5 among them); three can be messaged.
    await expect
      .poll(() => builder.getByTestId('segment-count').innerText())
      .toBe('4 contacts match · 3 can be messaged');
    await page.screenshot({ path: `${SHOTS}/segments-builder.png`, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
    await builder.getByRole('button', { name: 'Save segment' }).click();
    await page.getByText('Segment saved').first().waitFor();
    const saved = page.getByRole('list', { name: 'Saved segments' }).getByRole('listitem', {
      name: 'Quiet regulars',
    });
    await saved.waitFor();
    expect((await saved.getByRole('listitem').allInnerTexts()).map((line) => line.trim())).toEqual(RULES);

    // Customers filtered by it: its members, the one who opted out among them.
    await saved.getByRole('link', { name: 'View customers' }).click();
    await page.waitForURL(/\/customers\?segment=\d+$/);
    const segmentId = Number(new URL(page.url()).searchParams.get('segment'));
    const listed = () =>
      page
        .getByRole('row')
        .filter({ hasText: /Regular|Walk-in/ })
        .allInnerTexts();
    await expect
      .poll(async () => (await listed()).map((row) => /(Regular|Walk-in) \d/.exec(row)?.[0]).sort())
      .toEqual(MEMBERS);
    expect(await page.getByRole('combobox', { name: 'Segment' }).inputValue()).toBe(String(segmentId));
    await page.screenshot({ path: `${SHOTS}/segments-customers.png`, fullPage: true });

    // New broadcast to the segment: its rules under the choice.
    await page.goto(`${stack.url}/broadcast/new`);
    await page.getByRole('option', { name: 'regulars_offer (en_US)' }).waitFor({ state: 'attached' });
    await page.getByRole('textbox', { name: 'Broadcast Name' }).fill('Regulars offer');
    await page
      .getByRole('combobox', { name: 'Message Template' })
      .selectOption({ label: 'regulars_offer (en_US)' });
    await page.getByRole('tab', { name: 'Segment' }).click();
    await page.getByRole('combobox', { name: 'Choose a segment' }).selectOption({ label: 'Quiet regulars' });
    expect(await page.getByTestId('segment-rules').getByRole('listitem').allInnerTexts()).toEqual(RULES);
    await page.getByRole('slider', { name: 'Percentage of recipients' }).fill('100');
    // Of its four contacts, the one who opted out is left out.
    await expect.poll(() => page.locator('output[aria-label="Selected recipients"]').innerText()).toBe('3');
    await page.getByText('100% of 4 contacts in the segment').waitFor();
    await newBroadcastSettled(page);
    await page.screenshot({ path: `${SHOTS}/segments-new-broadcast.png`, fullPage: true });
    await page.getByRole('button', { name: 'Send Broadcast' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Send Broadcast' }).click();
    await page.waitForURL(`${stack.url}/broadcast`);

    // Exactly the members who can be messaged got it.
    await expect
      .poll(async () => (await sandboxSent(stack, phoneNumberId, 'regulars_offer')).length, {
        timeout: 30_000,
      })
      .toBe(3);
    expect((await sandboxSent(stack, phoneNumberId, 'regulars_offer')).map((m) => `+${m.to}`).sort()).toEqual(
      [...REACHED].sort(),
    );

    // The report names the segment and its rules.
    const { results } = await api<{ results: Array<{ id: number; name: string }> }>('/broadcast/create/');
    const id = results.find((r) => r.name === 'Regulars offer')!.id;
    await page.goto(`${stack.url}/broadcast/${id}`);
    await page.getByRole('heading', { name: 'Delivery Report: Regulars offer' }).waitFor();
    await page.getByText('Segment: Quiet regulars').waitFor();
    expect(await page.getByTestId('report-segment-rules').getByRole('listitem').allInnerTexts()).toEqual(
      RULES,
    );
    await page.screenshot({ path: `${SHOTS}/segments-report.png`, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
  });
});
