import { BroadcastEngine } from '../apps/server/src/features/broadcasts/sending/broadcast-engine';
import { MessageSender } from '../apps/server/src/features/broadcasts/sending/message-sender';
import { SecretBox } from '../apps/server/src/security/secret-box';
import { runUntil, sandboxControl } from './engine-until';
import { startTestApp, type TestApp } from './test-app';

/** The sandbox's settings of a sending test: quick reviews and statuses, no pair-rate pauses. */
const QUICK_SANDBOX = {
  review_delay_ms: 50,
  status_delays_ms: { sent: 10, delivered: 20, read: 30 },
  pair_rate_window_ms: 0,
};

/**
 * The scene of a test that sends against the sandbox over HTTP: a test app listening for the sandbox's
 * webhooks, the sandbox set for quick statuses, and a broadcast engine the test drives by hand (`until`)
 * in place of a worker. `close()` stops all three.
 */
export async function startSendingScene(options: { env?: Record<string, string> } = {}) {
  const t: TestApp = await startTestApp(options.env);
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  const sandbox = sandboxControl(() => t.sandboxUrl);
  await sandbox('/__sandbox/config', { webhook_url: `${address}/webhooks/whatsapp`, ...QUICK_SANDBOX });
  const sender = new MessageSender(t.sandboxUrl, 'v25.0');
  const secrets = new SecretBox(t.config.ENCRYPTION_KEY!);
  const engine = new BroadcastEngine({ pool: t.db.pool, sender, secrets });
  return {
    t,
    sandbox,
    sender,
    secrets,
    engine,
    until: (check: () => Promise<boolean>, what: string, timeoutMs?: number) =>
      runUntil(t, engine, check, what, timeoutMs),
    async close() {
      await engine.stop();
      sender.close();
      await t.close();
    },
  };
}

export type SendingScene = Awaited<ReturnType<typeof startSendingScene>>;
