import type { Page } from 'playwright-core';
import type { StackView } from './stack';

/**
 * New broadcast has answered the audience's limit and cost (and the frequency cap's line, when the template is a
 * marketing one and the spec waits for it): the lines they add move the buttons, so a click waits for them.
 */
export async function newBroadcastSettled(
  page: Page,
  options: { frequencyCap?: boolean } = {},
): Promise<void> {
  await page
    .getByText(/left in your 24-hour limit/)
    .first()
    .waitFor({ timeout: 20_000 });
  await page
    .getByText(/^Estimated cost:/)
    .first()
    .waitFor({ timeout: 20_000 });
  if (options.frequencyCap) await page.getByTestId('frequency-cap-line').waitFor({ timeout: 20_000 });
}

/** The template messages the sandbox received from the number, by template name (its call log). */
export async function sandboxSent(
  stack: Pick<StackView, 'sandboxUrl'>,
  phoneNumberId: string,
  template: string,
): Promise<Array<{ to: string; template?: { name: string } }>> {
  const response = await fetch(`${stack.sandboxUrl}/__sandbox/messages?phone_number_id=${phoneNumberId}`);
  const log = (await response.json()) as { data: Array<{ to: string; template?: { name: string } }> };
  return log.data.filter((message) => message.template?.name === template);
}
