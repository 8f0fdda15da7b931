import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, SCREENSHOT_DIR } from './support/browser';
import { recordBrowserTrouble, signInViaUi } from './support/session';
import { sharedStack } from './support/shared-stack';
import type { StackView } from './support/stack';
import { signUpViaApi } from '../test-support/business';

// In real Chromium: Account Settings changes the password in one browser, and the same user's
// session in another browser is signed out (its next navigation lands on sign-in) while this one carries on.
const EMAIL = 'account@shop.test';
const OLD_PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'battery staple horse';

let stack: StackView;
let browser: Browser;
const contexts: BrowserContext[] = [];
let here: Page;
let elsewhere: Page;
const trouble: string[][] = [];

async function signedInPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  trouble.push(recordBrowserTrouble(page));
  await signInViaUi(page, stack, EMAIL, OLD_PASSWORD);
  return page;
}

beforeAll(async () => {
  stack = await sharedStack();
  await signUpViaApi(stack, EMAIL, OLD_PASSWORD, 'Account Shop');
  browser = await launchBrowser();
  here = await signedInPage();
  elsewhere = await signedInPage();
});

afterEach((context) => {
  if (context.task.result?.state === 'fail')
    console.log(`browser logs:\n${trouble.map((log) => log.join('\n')).join('\n--\n')}`);
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

describe('Account Settings in Chromium', () => {
  it('refuses a wrong current password under its field, and nobody is signed out', async () => {
    await here.goto(`${stack.url}/settings`);
    await here.getByRole('tab', { name: 'Account Settings' }).click();
    const panel = here.getByRole('tabpanel');
    await panel.getByLabel('Current Password').fill('not my password');
    await panel.getByLabel('Change Password').fill(NEW_PASSWORD);
    await panel.getByLabel('Confirm New Password').fill(NEW_PASSWORD);
    await panel.getByRole('button', { name: 'Save' }).click();
    await panel
      .getByRole('alert')
      .filter({ hasText: 'Account Settings were not saved: The current password is not correct.' })
      .waitFor();
    expect(await panel.getByLabel('Current Password').getAttribute('aria-invalid')).toBe('true');
    await elsewhere.goto(`${stack.url}/customers`);
    await elsewhere.getByRole('heading', { level: 1, name: 'Customers' }).waitFor();
    expect(new URL(elsewhere.url()).pathname).toBe('/customers');
  });

  it('changes the password: the other browser lands on sign-in, this one carries on, the new password signs in', async () => {
    const panel = here.getByRole('tabpanel');
    await panel.getByLabel('Current Password').fill(OLD_PASSWORD);
    await panel.getByLabel('Change Password').fill(NEW_PASSWORD);
    await panel.getByLabel('Confirm New Password').fill(NEW_PASSWORD);
    await panel.getByRole('button', { name: 'Save' }).click();
    await panel
      .getByRole('status')
      .filter({ hasText: 'Account Settings saved. Your other sessions have been signed out.' })
      .waitFor();
    await here.screenshot({ path: `${SCREENSHOT_DIR}/account-settings-saved.png` });

    // The other browser's next navigation: its access token's session is revoked, its refresh is refused.
    await elsewhere.goto(`${stack.url}/customers`);
    await elsewhere.getByLabel('Username').waitFor();
    await elsewhere.screenshot({ path: `${SCREENSHOT_DIR}/account-settings-signed-out.png` });

    // This browser is still signed in, across a reload.
    await here.goto(`${stack.url}/customers`);
    await here.reload();
    await here.getByRole('heading', { level: 1, name: 'Customers' }).waitFor();
    expect(new URL(here.url()).pathname).toBe('/customers');
    expect(await here.getByLabel('Username').count()).toBe(0);

    // The old password no longer signs in; the new one does.
    await elsewhere.getByLabel('Username').fill(EMAIL);
    await elsewhere.getByLabel('Password').fill(OLD_PASSWORD);
    await elsewhere.getByRole('button', { name: 'Sign in' }).click();
    await elsewhere.getByText('Invalid email or password').first().waitFor();
    await elsewhere.getByLabel('Password').fill(NEW_PASSWORD);
    await elsewhere.getByRole('button', { name: 'Sign in' }).click();
    // Signed in again, back on the screen the session ended on.
    await elsewhere.waitForURL(`${stack.url}/customers`);
    await elsewhere.getByRole('heading', { level: 1, name: 'Customers' }).waitFor();
  });
});
