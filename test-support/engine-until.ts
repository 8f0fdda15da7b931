import type { TestApp } from './test-app';

/** What a test drives by hand in place of a worker: a broadcast engine. */
interface Engine {
  tick(): Promise<unknown>;
  idle(): Promise<unknown>;
}

/**
 * Ticks the engine and drains the app's webhooks until `check` holds: how a test against the sandbox waits for
 * sends, their statuses and replies. Throws naming `what` after `timeoutMs`.
 */
export async function runUntil(
  t: Pick<TestApp, 'app'>,
  engine: Engine,
  check: () => Promise<boolean>,
  what = 'the condition',
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await engine.tick();
    await engine.idle();
    await t.app.webhooks.idle();
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The sandbox's control API at `url`: GET without a body, POST with one; throws on any answer but 2xx. */
export function sandboxControl(url: () => string) {
  return async (path: string, body?: object) => {
    const response = await fetch(`${url()}${path}`, {
      method: body ? 'POST' : 'GET',
      headers: { 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = await response.json();
    if (!response.ok) throw new Error(`${path}: ${JSON.stringify(json)}`);
    return json;
  };
}
