import type { CallLog } from './call-log';
import type { Messaging } from './messages/messaging';
import type { PortfolioTier } from './messages/portfolio-tiers';
import type { SandboxState } from './state';
import type { ReviewScheduler } from './templates/review-scheduler';
import type { WebhookSender } from './webhooks/webhook-sender';

/** Settings tests may change at runtime through `POST /__sandbox/config`. */
export interface SandboxConfig {
  /** How long a template stays PENDING before the automatic review decides. */
  reviewDelayMs: number;
  /** Where notifications go when the WABA's subscription has no override_callback_uri. */
  webhookUrl: string | null;
  /** Webhook retries (webhooks/retry-policy.ts): first wait, doubling up to the max wait, up to the max age. */
  webhookRetryBaseMs: number;
  webhookRetryMaxWaitMs: number;
  webhookRetryMaxAgeMs: number;
  /** An extra cap on attempts (null: none, only the max age, as Meta's). */
  webhookMaxAttempts: number | null;
  /** After acceptance: when sent, delivered and read statuses are posted. */
  statusDelaysMs: { sent: number; delivered: number; read: number };
  /** Share of accepted messages that are delivered. */
  deliveredRate: number;
  /** Share of delivered messages that are read. */
  readRate: number;
  /** Share of statuses posted twice. */
  duplicateRate: number;
  /** Share of messages whose last two statuses are posted in swapped order. */
  reorderRate: number;
  /** Statuses in one webhook POST at most. */
  webhookBatchSize: number;
  /** Statuses due within this window go out in the same POST. */
  webhookBatchWindowMs: number;
  /** Messages to one recipient allowed at once, then one per window. */
  pairRateBurst: number;
  /** The pair-rate window (0 = no pair limit). */
  pairRateWindowMs: number;
  /** The messaging limit a new business portfolio starts with. */
  defaultMessagingLimit: PortfolioTier;
  /** Meta's pause of marketing templates to US numbers (131049); off only for tests about something else. */
  usMarketingRule: boolean;
  /** A business that signs up accepts the Marketing Messages API terms in the same Embedded Signup flow. */
  mmApiTermsAtSignup: boolean;
}

/**
 * The state on disk as the routes use it: persistence/state-persistence.ts's StatePersistence. Stated here so
 * the context, which the state file's capture reads, needs nothing of the persistence module.
 */
export interface StateSaver {
  /** Something changed (the request hook cannot see every change): written soon. */
  changed(): void;
  /** Reset: nothing of the old state stays on disk. */
  clear(): Promise<void>;
  /** The last write, when the sandbox stops. */
  close(): Promise<void>;
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
  messaging: Messaging;
  /** The state on disk (null: memory only); told of every change the request hook cannot see. */
  persistence: StateSaver | null;
}
