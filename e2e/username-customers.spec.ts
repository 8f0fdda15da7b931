import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, SCREENSHOT_DIR } from './support/browser';
import { recordBrowserTrouble, signInViaUi } from './support/session';
import { closeAfterAll, printCluesOnFailure } from './support/spec-hooks';
import { sharedStack } from './support/shared-stack';
import type { StackView } from './support/stack';
import { signUpViaApi } from '../test-support/business';

/**
 * In Chromium: a customer who hides their number behind a WhatsApp username writes STOP to the
 * business (through the sandbox, with a BSUID and no phone number); Customers lists them by their username,
 * opted out.
 */
let stack: StackView;
let browser: Browser;
let page: Page;
let trouble: string[];
let phoneNumberId: string;

const EMAIL = 'usernames@shop.test';
const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  stack = await sharedStack();
  phoneNumberId = (await signUpViaApi(stack, EMAIL, PASSWORD, 'Username Shop')).phone_number_id;
  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
  trouble = recordBrowserTrouble(page);
  await signInViaUi(page, stack, EMAIL, PASSWORD);
});

printCluesOnFailure(() => ({ stack, trouble, page }));
closeAfterAll(() => ({ browser }));

describe('customers known only by their username, in Chromium', () => {
  it(
    'lists a username-only customer who replied STOP by their username, opted out',
    { timeout: 120_000 },
    async () => {
      const inbound = await fetch(`${stack.sandboxUrl}/__sandbox/inbound`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          phone_number_id: phoneNumberId,
          user_id: 'US.13491208655302741918',
          username: 'sam.k',
          name: 'Sam Kim',
          text: 'STOP',
        }),
      });
      expect(inbound.status).toBe(200);
      // The webhook reaches Herald on its own time (the sandbox retries a refused delivery with a doubling
      // back-off, as Meta does): reload until the contact is listed.
      await page.getByRole('link', { name: 'Customers' }).click();
      await page.waitForURL(`${stack.url}/customers`);
      await expect
        .poll(
          async () => {
            await page.reload();
            await page.getByRole('button', { name: 'Add New Contact' }).waitFor();
            return page.getByRole('cell', { name: '@sam.k', exact: true }).count();
          },
          { timeout: 70_000, interval: 500 },
        )
        .toBe(1);
      const row = page.getByRole('row').filter({ hasText: '@sam.k' });
      expect(await row.getByRole('button', { name: 'Sam Kim', exact: true }).count()).toBe(1);
      expect(await row.getByText('Opted out', { exact: true }).count()).toBe(1);
      // Neither the BSUID nor a made-up number is shown in its place.
      expect(await page.getByText('US.13491208655302741918').count()).toBe(0);
      await page.screenshot({ path: `${SCREENSHOT_DIR}/customers-username-only.png` });
    },
  );
});
