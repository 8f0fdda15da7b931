import type { Page } from 'playwright-core';
import type { StackView } from './stack';

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
