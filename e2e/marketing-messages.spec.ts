import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, SCREENSHOT_DIR } from './support/browser';
import { seriousViolations } from './support/axe';
import { recordBrowserTrouble, signInViaUi } from './support/session';
import { sharedStack } from './support/shared-stack';
import type { StackView } from './support/stack';
import { sandboxBusiness, signUpSandboxBusiness, signUpViaApi } from '../test-support/business';

// In real Chromium: Message Settings shows the account's onboarding to Meta's Marketing Messages API as Meta says
// it. A business signed up through Herald accepted the terms in Embedded Signup (Onboarded); one that did not
// starts onboarding from Herald (Pending) and is Onboarded once its admin accepts (Meta's webhook).
let stack: StackView;
let browser: Browser;
let page: Page;
let trouble: string[];

const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  stack = await sharedStack();
  await signUpViaApi(stack, 'mm-onboarded@shop.test', PASSWORD, 'Onboarded Shop');
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1440, height: 1000 } })).newPage();
  page.setDefaultTimeout(20_000);
  trouble = recordBrowserTrouble(page);
});

afterEach(async (context) => {
  if (context.task.result?.state !== 'fail') return;
  console.log(`browser log:\n${trouble.join('\n')}`);
});

afterAll(async () => {
  await browser?.close();
});

async function openMessageSettings() {
  await page.goto(`${stack.url}/settings`);
  await page.getByRole('tab', { name: 'Message Settings' }).click();
  await page.getByRole('tabpanel').getByRole('button', { name: 'Save' }).waitFor();
}

const state = () => page.getByTestId('mm-api-state');

describe('Marketing Messages API onboarding in Chromium', () => {
  it('a business signed up through Herald shows Onboarded, with marketing routed through it', async () => {
    await signInViaUi(page, stack, 'mm-onboarded@shop.test', PASSWORD);
    await openMessageSettings();
    await expect.poll(() => state().textContent()).toBe('Onboarded');
    expect(
      await page.getByLabel('Send marketing templates through the Marketing Messages API').isChecked(),
    ).toBe(true);
    await page
      .getByText(
        'Marketing broadcasts go through /marketing_messages; untick to send them through the Cloud API.',
      )
      .waitFor();
    expect(await page.getByRole('button', { name: 'Start onboarding' }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('one that did not accept the terms starts onboarding: Pending, then Onboarded once its admin accepts', async () => {
    const business = await sandboxBusiness(stack.sandboxUrl, 'Later Shop', { mm_api_terms: false });
    await signUpSandboxBusiness(stack, business, 'mm-later@shop.test', PASSWORD);
    // A browser of its own: another business, signed in afresh.
    page = await (await browser.newContext({ viewport: { width: 1440, height: 1000 } })).newPage();
    page.setDefaultTimeout(20_000);
    trouble = recordBrowserTrouble(page);
    await signInViaUi(page, stack, 'mm-later@shop.test', PASSWORD);
    await openMessageSettings();
    await expect.poll(() => state().textContent()).toBe('Not onboarded');
    await page
      .getByText(
        'Applies once the account is onboarded; until then every template goes through the Cloud API.',
      )
      .waitFor();

    await page.getByRole('button', { name: 'Start onboarding' }).click();
    await expect.poll(() => state().textContent()).toBe('Pending');
    await page
      .getByText('Meta has emailed your business portfolio’s admins to accept the terms.')
      .first()
      .waitFor();
    expect(await page.getByRole('button', { name: 'Start onboarding' }).count()).toBe(0);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/marketing-messages-pending.png`, fullPage: true });

    // The portfolio's admin accepts the terms in WhatsApp Manager: Meta sends MM_LITE_TERMS_SIGNED.
    const accepted = await fetch(
      `${stack.sandboxUrl}/__sandbox/businesses/${business.business_id}/marketing-messages-terms`,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' },
    );
    expect(accepted.status).toBe(200);
    await expect
      .poll(
        async () => {
          await openMessageSettings();
          return state().textContent();
        },
        { timeout: 20_000 },
      )
      .toBe('Onboarded');
  });
});
