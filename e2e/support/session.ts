import type { Page } from 'playwright-core';
import type { StackView } from './stack';

/** Signs a business up through the API, as the Embedded Signup page would after the popup (no browser needed). */
export async function signUpViaApi(stack: StackView, email: string, password: string, businessName: string) {
  const business = (await (
    await fetch(`${stack.sandboxUrl}/__sandbox/wabas`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ business_name: businessName }),
    })
  ).json()) as { waba_id: string; phone_number_id: string; code: string };
  const response = await fetch(`${stack.url}/api/auth/facebook/callback/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      code: business.code,
      waba_id: business.waba_id,
      phone_number_id: business.phone_number_id,
      account_data: { waba_id: business.waba_id, phone_number_id: business.phone_number_id },
      email,
      password,
    }),
  });
  if (response.status !== 200) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  return business;
}

export async function signInViaUi(page: Page, stack: StackView, email: string, password: string) {
  await page.goto(`${stack.url}/`);
  await page.getByLabel('Username').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${stack.url}/dashboard`);
}

/** Collects what the browser saw go wrong, to print when a test fails. */
export function recordBrowserTrouble(page: Page): string[] {
  const log: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') log.push(`console: ${message.text()}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400)
      log.push(`${response.status()} ${response.request().method()} ${response.url()}`);
  });
  return log;
}
