import { readFileSync, statSync } from 'node:fs';
import { inject } from 'vitest';
import type { SharedStackAddress } from './global-setup';
import type { StackView } from './stack';

/**
 * The run's stack started with `env` (global-setup.ts starts it for the first file asking), for a spec that
 * needs only a business of its own: it signs one up with e-mails no other spec uses and looks at nothing
 * beyond it (no sandbox-wide counts, no change to the sandbox's or the server's configuration). Such a spec
 * never stops the stack. Its `output()` is what the stack printed since this call.
 *
 * The files sharing a stack share its limits too: sign-up allows 20 attempts per address an hour, and every
 * spec signs up from 127.0.0.1.
 */
export async function sharedStack(env: Record<string, string> = {}): Promise<StackView> {
  const response = await fetch(`${inject('sharedStacks')}/stacks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(env),
  });
  if (response.status !== 200) throw new Error(`no shared stack: ${await response.text()}`);
  const { url, sandboxUrl, logFile } = (await response.json()) as SharedStackAddress;
  const since = statSync(logFile).size;
  return {
    url,
    sandboxUrl,
    output: () => readFileSync(logFile).subarray(since).toString('utf8'),
  };
}
