import type { SandboxContext } from '../context';

/**
 * Meta posts to the app's callback URL, or to the WABA subscription's override_callback_uri when one was
 * set. Unlike Meta, the sandbox also notifies WABAs the app never subscribed to (documented in README).
 */
export function webhookTarget(ctx: SandboxContext, wabaId: string): string | null {
  const subscription = ctx.state.subscriptionsOf(wabaId).find((s) => s.appId === ctx.appId);
  return subscription?.overrideCallbackUri ?? ctx.config.webhookUrl;
}
