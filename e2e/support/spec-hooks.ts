import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach } from 'vitest';
import { removeDataDir, type Stack, type StackView } from './stack';
import { assertStatusesLanded } from './statuses-landed';

/**
 * On a failed test, prints what the stack (a shared one: since the spec began), the browser and the page
 * showed: the only clues a CI log keeps. `clues` is read when a test fails, so the spec's variables may still
 * be unset when this is called.
 */
export function printCluesOnFailure(
  clues: () => { stack?: StackView; trouble?: string[]; page?: Page },
  outputChars = 6000,
): void {
  afterEach(async (context) => {
    if (context.task.result?.state !== 'fail') return;
    const { stack, trouble, page } = clues();
    if (stack) console.log(`stack output:\n${stack.output().slice(-outputChars)}`);
    if (trouble) console.log(`browser log:\n${trouble.join('\n')}`);
    if (page) {
      const text = await page
        .locator('main')
        .innerText()
        .catch(() => '');
      console.log(`page text:\n${text}`);
    }
  });
}

/**
 * After the file's tests: closes the browser, checks that every status the stack processed landed on its
 * message, stops the stack and removes its data folder. A spec on a shared stack passes no stack: the run's
 * teardown checks and stops it.
 */
export function closeAfterAll(parts: () => { browser?: Browser; stack?: Stack }): void {
  afterAll(async () => {
    const { browser, stack } = parts();
    await browser?.close();
    try {
      if (stack) await assertStatusesLanded(stack);
    } finally {
      await stack?.stop();
      if (stack) await removeDataDir(stack.dataDir);
    }
  });
}
