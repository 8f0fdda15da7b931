import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, SCREENSHOT_DIR } from './support/browser';
import { recordBrowserTrouble, signInViaUi } from './support/session';
import { sharedStack } from './support/shared-stack';
import type { StackView } from './support/stack';
import { closeAfterAll, printCluesOnFailure } from './support/spec-hooks';
import { apiLogin, createApprovedTemplate, importContacts, signUpViaApi } from '../test-support/business';

// The cost before (New broadcast's estimate and its breakdown) and after (history and report, from the
// pricing the sandbox's statuses state), and Meta's own figure beside it (the sandbox's pricing_analytics), in
// Chromium against the real server and sandbox.
let stack: StackView;
let browser: Browser;
let page: Page;
let trouble: string[];

const EMAIL = 'pricing@shop.test';
const PASSWORD = 'correct horse battery';
// Two recipients in each of India, the United Kingdom and North America, at Herald's card (2025-07-01, marketing):
// 2 × 0.0107 + 2 × 0.0529 + 2 × 0.025 = 0.1772 USD.
const COST = '$0.1772';

beforeAll(async () => {
  stack = await sharedStack({ SANDBOX_REVIEW_DELAY_MS: '300', SANDBOX_US_MARKETING_RULE: 'false' });
  await signUpViaApi(stack, EMAIL, PASSWORD, 'Pricing Shop');
  const token = await apiLogin(stack, EMAIL, PASSWORD);
  const numbers = [
    '+919812345601',
    '+919812345602',
    '+447911123401',
    '+447911123402',
    '+16285552001',
    '+16285552002',
  ];
  await importContacts(
    stack,
    token,
    `name,number\n${numbers.map((n, i) => `Guest ${i},${n}`).join('\n')}\n`,
    'World',
  );
  await createApprovedTemplate(stack, token, {
    name: 'world_offer',
    language: 'en_US',
    category: 'MARKETING',
    components: [{ type: 'BODY', text: 'Hello {{1}}, an offer for you.' }],
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

describe('what a broadcast costs, in Chromium', () => {
  it('estimates the cost by market before sending, then shows the billable cost after the statuses', async () => {
    await page.goto(`${stack.url}/broadcast/new`);
    await page.getByRole('option', { name: 'world_offer (en_US)' }).waitFor({ state: 'attached' });
    await page.getByRole('textbox', { name: 'Broadcast Name' }).fill('World offer');
    await page
      .getByRole('combobox', { name: 'Message Template' })
      .selectOption({ label: 'world_offer (en_US)' });
    await page.getByRole('checkbox', { name: 'World' }).check();
    const estimate = page.getByRole('status', { name: 'Estimated cost' });
    // At the default 55 %: 3 of the 6 recipients are estimated (each market's share scaled).
    await expect
      .poll(() => estimate.innerText())
      .toMatch(/^Estimated cost: \$[\d.]+ for 3 recipients at marketing rates$/);
    await page.getByRole('slider', { name: 'Percentage of recipients' }).fill('100');
    await expect
      .poll(() => estimate.innerText())
      .toBe(`Estimated cost: ${COST} for 6 recipients at marketing rates`);
    await page.getByText('Cost by market').click();
    const breakdown = page.getByRole('region', { name: 'Estimated cost' }).getByRole('table');
    await expect
      .poll(() => breakdown.getByRole('row').allInnerTexts())
      .toEqual([
        expect.stringMatching(/^Market\s+Recipients\s+Rate\s+Cost$/),
        expect.stringMatching(/^United Kingdom\s+2\s+\$0\.0529\s+\$0\.1058$/),
        expect.stringMatching(/^North America\s+2\s+\$0\.025\s+\$0\.05$/),
        expect.stringMatching(/^India\s+2\s+\$0\.0107\s+\$0\.0214$/),
      ]);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/new-broadcast-cost.png` });

    await page.getByRole('button', { name: 'Send Broadcast' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Send Broadcast' }).click();
    await page.waitForURL(`${stack.url}/broadcast`);
    const row = page.getByRole('row').filter({ hasText: 'World offer' });
    await expect.poll(() => row.innerText(), { timeout: 30_000 }).toContain(`${COST} · 6 billable`);

    await row.getByRole('link', { name: 'World offer' }).click();
    await expect
      .poll(() => page.getByRole('status', { name: 'Cost' }).innerText(), { timeout: 30_000 })
      .toBe(`Cost: ${COST} for 6 billable messages`);
    // Meta's own figure (decision 053): the sandbox bills what it delivered at its own copy of Meta's rates,
    // which agree with Herald's card for these markets; no other broadcast shares the range, so no note.
    await expect
      .poll(() => page.getByRole('status', { name: "Meta's figure" }).innerText(), { timeout: 30_000 })
      .toBe(`Meta’s figure: ${COST} for 6 billable messages delivered from this number`);
    expect(await page.getByRole('note', { name: "Meta's figure differs" }).count()).toBe(0);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/report-cost.png` });
  });
});
