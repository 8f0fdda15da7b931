import type { CallLog } from './call-log';
import type { SandboxState } from './state';
import type { ReviewScheduler } from './templates/review-scheduler';
import type { WebhookSender } from './webhooks/webhook-sender';

/** Settings tests may change at runtime through `POST /__sandbox/config`. */
export interface SandboxConfig {
  /** How long a template stays PENDING before the automatic review decides. */
  reviewDelayMs: number;
  /** Where notifications go when the WABA's subscription has no override_callback_uri. */
  webhookUrl: string | null;
  webhookRetryBaseMs: number;
  webhookMaxAttempts: number;
}

/** What every route module needs; passed explicitly rather than decorated onto Fastify. */
export interface SandboxContext {
  state: SandboxState;
  log: CallLog;
  appId: string;
  appSecret: string;
  appName: string;
  publicUrl: string | undefined;
  config: SandboxConfig;
  reviews: ReviewScheduler;
  webhooks: WebhookSender;
}
