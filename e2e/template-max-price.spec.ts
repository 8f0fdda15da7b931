import { mkdir } from 'node:fs/promises';
import type { Browser, Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LinkSettingsResponse } from '@herald/contracts';
import { seriousViolations } from './support/axe';
import { launchBrowser, SCREENSHOT_DIR } from './support/browser';
import { recordBrowserTrouble, signInViaUi } from './support/session';
import { sharedStack } from './support/shared-stack';
import type { StackView } from './support/stack';
import { closeAfterAll, printCluesOnFailure } from './support/spec-hooks';
import {
  apiLogin,
  createApprovedTemplate,
  createBroadcast,
  importContacts,
  signUpViaApi,
} from '../test-support/business';

// In Chromium: a marketing template's maximum price, typed in dollars per delivered message on Create Template
// (a typo said in dollars, the price sent as Meta's cents per 1,000 deliveries), approved by the sandbox; Edit
// Template shows it ("changed, not removed"), and a template created without one shows the field disabled; New
// broadcast names it and estimates "at most" at it. Then Edit Template's clicks: WhatsApp's taps per button
// (every tap) beside the people Herald's tracked links counted (once each), after one person taps twice and
// another once.

const EMAIL = 'max-price@shop.test';
const PASSWORD = 'correct horse battery';
const PEOPLE = ['+447911123701', '+447911123702', '+447911123703'];
const FIELD = 'Maximum price per delivered message (USD)';

let stack: StackView;
let browser: Browser;
let page: Page;
let trouble: string[];
let token: string;
let phoneNumberId: string;
let plainId: number;
let clicksId: number;
let destination: string;

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
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  stack = await sharedStack({ SANDBOX_REVIEW_DELAY_MS: '300', SANDBOX_US_MARKETING_RULE: 'false' });
  const business = await signUpViaApi(stack, EMAIL, PASSWORD, 'Price Shop');
  phoneNumberId = business.phone_number_id;
  token = await apiLogin(stack, EMAIL, PASSWORD);
  const rows = PEOPLE.map((number, i) => `Buyer ${i + 1},${number}`).join('\n');
  await importContacts(stack, token, `name,number\n${rows}\n`, 'Buyers');
  const links = (await (
    await fetch(`${stack.url}/broadcast/links/`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as LinkSettingsResponse;
  destination = `${stack.url}/healthz?utm_source=whatsapp`;
  // Both reviewed at once: a marketing template created without a price (Meta adds none later), and one with a
  // tracked link button, as link-clicks.spec makes it.
  [plainId, clicksId] = await Promise.all([
    createApprovedTemplate(stack, token, {
      name: 'plain_offer',
      language: 'en_US',
      category: 'MARKETING',
      components: [{ type: 'BODY', text: 'Our spring offer is here.' }],
    }),
    createApprovedTemplate(stack, token, {
      name: 'tap_deal',
      language: 'en_US',
      category: 'MARKETING',
      components: [
        { type: 'BODY', text: 'Our deal of the week is live.' },
        {
          type: 'BUTTONS',
          buttons: [{ type: 'URL', text: 'Shop now', url: links.tracked_button_url, example: ['abc123'] }],
        },
      ],
    }),
  ]);
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1440, height: 1000 } })).newPage();
  page.setDefaultTimeout(20_000);
  trouble = recordBrowserTrouble(page);
  await signInViaUi(page, stack, EMAIL, PASSWORD);
});

printCluesOnFailure(() => ({ stack, trouble, page }));
closeAfterAll(() => ({ browser }));

const priceField = () => page.getByLabel(FIELD);
const row = (name: string) =>
  page.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
const clicksPanel = () => page.getByRole('region', { name: 'Clicks' });

/** The text of what a field's aria-describedby points at: its hint, or its error. */
async function description(field: Locator): Promise<string> {
  const ids = (await field.getAttribute('aria-describedby')) ?? '';
  const texts = await Promise.all(
    ids
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => page.locator(`[id="${id}"]`).innerText()),
  );
  return texts.join(' ');
}

async function openEditTemplate(id: number) {
  await page.goto(`${stack.url}/templates/${id}`);
  await page.getByRole('button', { name: 'Update Template' }).waitFor();
}

/** A full-page screenshot from the top: scrolled, the sticky header would be drawn over the middle of it. */
async function shot(file: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SCREENSHOT_DIR}/${file}`, fullPage: true });
}

/** A full-page screenshot as a phone shows it, then back to the desktop size (as broadcast-rules.spec). */
async function phoneShot(file: string) {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForFunction(
    () => (document.getElementById('main-navigation-drawer')?.getBoundingClientRect().right ?? 0) <= 0,
  );
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SCREENSHOT_DIR}/${file}`, fullPage: true });
  await page.setViewportSize({ width: 1440, height: 1000 });
  return overflow;
}

describe('a template’s maximum price and clicks, in Chromium', () => {
  it('creates a marketing template with a maximum price in dollars; a typo is said in dollars', async () => {
    await page.goto(`${stack.url}/template`);
    await page.getByRole('link', { name: 'New Template Message' }).click();
    await page.waitForURL(`${stack.url}/template/create-template`);
    await page.getByLabel('Template Name').fill('price_cap_sale');
    await page.getByLabel('Category').selectOption('MARKETING');
    await page
      .getByRole('region', { name: 'Body Content' })
      .getByLabel('Body Text')
      .fill('Our weekend sale: everything at half price.');
    expect(await description(priceField())).toMatch(
      /^WhatsApp charges this or less for each delivery through the Marketing Messages API/,
    );

    // A typo: too many decimals for Meta's bid. Nothing is saved; the field says why, in dollars.
    await priceField().fill('0.0000001');
    await page.getByRole('button', { name: 'Save Template' }).click();
    await page.getByText('The maximum price must have at most 5 decimals').first().waitFor();
    expect(await priceField().getAttribute('aria-invalid')).toBe('true');
    expect(page.url()).toBe(`${stack.url}/template/create-template`);
    await shot('max-price-create-error.png');

    // $0.025 per delivered message is 2,500 US cents per 1,000 deliveries, as Meta takes it.
    await priceField().fill('0.025');
    await expect.poll(() => description(priceField())).toMatch(/^WhatsApp charges this or less/);
    expect(await priceField().getAttribute('aria-invalid')).toBeNull();
    const json = JSON.parse((await page.getByLabel('Template payload JSON').innerText()) || '{}');
    expect(json).toMatchObject({ name: 'price_cap_sale', category: 'MARKETING', max_price_bid_amount: 2500 });
    await shot('max-price-create.png');
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Save Template' }).click();
    await page.getByText('Template saved successfully!').first().waitFor();
    await page.waitForURL(`${stack.url}/template`);
    // The sandbox reviews it (300 ms here); the list polls while a row is pending.
    await row('price_cap_sale')
      .getByText(/approved/i)
      .first()
      .waitFor({ timeout: 20_000 });
  });

  it('Edit Template shows the price, changeable but not removable; one created without has it disabled', async () => {
    await row('price_cap_sale').getByRole('link', { name: 'price_cap_sale', exact: true }).click();
    await page.getByRole('button', { name: 'Update Template' }).waitFor();
    await expect.poll(() => priceField().inputValue()).toBe('0.025');
    expect(await priceField().isDisabled()).toBe(false);
    expect(await description(priceField())).toMatch(/It can be changed, not removed\.$/);
    // A template never sent: no taps, nobody clicked.
    const panel = clicksPanel();
    await panel.getByRole('heading', { name: 'Clicks, last 90 days' }).waitFor();
    await expect.poll(() => panel.innerText()).toContain('No taps');
    expect(await panel.innerText()).toContain('Nobody clicked');
    await shot('max-price-edit.png');
    expect(await seriousViolations(page)).toEqual([]);

    await openEditTemplate(plainId);
    await priceField().waitFor();
    expect(await priceField().isDisabled()).toBe(true);
    expect(await priceField().inputValue()).toBe('');
    expect(await description(priceField())).toBe(
      'WhatsApp takes a maximum price only when a template is created: create a new template to set one.',
    );
  });

  it('New broadcast names the maximum price and estimates at most that per delivered message', async () => {
    await page.goto(`${stack.url}/broadcast/new`);
    await page.getByRole('option', { name: 'price_cap_sale (en_US)' }).waitFor({ state: 'attached' });
    await page.getByRole('textbox', { name: 'Broadcast Name' }).fill('Weekend sale');
    await page
      .getByRole('combobox', { name: 'Message Template' })
      .selectOption({ label: 'price_cap_sale (en_US)' });
    await page.getByRole('checkbox', { name: 'Buyers', exact: true }).check();
    await page.getByRole('slider', { name: 'Percentage of recipients' }).fill('100');

    const note = page.getByRole('note', { name: 'Maximum price' });
    await note.waitFor();
    expect((await note.innerText()).replace(/\s+/g, ' ').trim()).toBe(
      'Maximum price: $0.025 per delivered message. WhatsApp charges this or less for each delivery ' +
        '(through the Marketing Messages API). Change it on the template',
    );
    expect(await note.getByRole('link', { name: 'Change it on the template' }).getAttribute('href')).toMatch(
      /^\/templates\/\d+$/,
    );
    const estimate = page.locator('output[aria-label="Estimated cost"]');
    await expect
      .poll(() => estimate.innerText())
      .toBe(
        "Estimated cost: at most $0.075 for 3 recipients at the template's maximum price ($0.025 per delivered message)",
      );
    await shot('max-price-new-broadcast.png');
    expect(await seriousViolations(page)).toEqual([]);
    // On a phone the note wraps inside the form: nothing wider than the screen.
    expect(await phoneShot('max-price-new-broadcast-phone.png')).toBe(0);

    // A template without a price: no note, the estimate at marketing rates.
    await page
      .getByRole('combobox', { name: 'Message Template' })
      .selectOption({ label: 'plain_offer (en_US)' });
    await expect.poll(() => estimate.innerText()).toMatch(/^Estimated cost: \$[\d.]+ for 3 recipients at /);
    expect(await note.count()).toBe(0);
  });

  it('Edit Template counts WhatsApp’s taps per button beside the people Herald’s tracked links counted', async () => {
    // Read once before sending (Herald confirms the account's template analytics with WhatsApp on this read).
    await openEditTemplate(clicksId);
    await expect.poll(() => clicksPanel().innerText()).toContain('Nobody clicked');

    await createBroadcast(stack, token, {
      name: 'Deal of the week',
      template_id: clicksId,
      phone_number_id: phoneNumberId,
      recipients: { type: 'all', percentage: 100 },
      link_destination: destination,
    });
    await expect.poll(async () => (await sentBy('tap_deal')).length, { timeout: 30_000 }).toBe(3);
    const [first, second] = (await sentBy('tap_deal')).sort((a, b) => a.to.localeCompare(b.to));
    // The first buyer taps Shop now twice, the second once; each time their browser (this one) opens the link.
    for (const message of [first!, first!, second!]) {
      const tap = await sandbox<{ url: string; webhook: boolean }>(
        `/__sandbox/messages/${message.wamid}/clicks`,
        {
          component: 'cta',
        },
      );
      expect(tap.webhook).toBe(true);
      const buyer = await browser.newPage();
      await buyer.goto(tap.url);
      expect(buyer.url()).toBe(destination);
      await buyer.close();
    }

    await expect
      .poll(
        async () => {
          await openEditTemplate(clicksId);
          const panel = clicksPanel();
          await expect.poll(() => panel.innerText()).not.toContain('Loading...');
          return (await panel.innerText()).replace(/\s+/g, ' ').trim();
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe(
        'Clicks, last 90 days Counted by WhatsApp (every tap on a button) Shop now: 3 taps ' +
          'Herald’s tracked links (people, once each) 2 people clicked, in 1 broadcast',
      );
    expect(await clicksPanel().getByRole('listitem').allInnerTexts()).toEqual(['Shop now: 3 taps']);
    await shot('max-price-template-clicks.png');
    expect(await seriousViolations(page)).toEqual([]);
  });
});
