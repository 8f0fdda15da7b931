import type { SandboxContext } from '../context';
import type { MessageTemplate } from '../templates/template-store';
import type { FailureKind } from './message-errors';
import type { PacingRule } from './pacing';
import { isUndeliverable, isUsNumber } from './recipient-rules';
import { planStatuses } from './status-plan';
import type { PlannedStatus } from './status-plan';

/** What Meta will do with a send it accepts, decided at acceptance. */
export interface SendFate {
  /** Set when the message will fail (its `failed` status says why). */
  failure: FailureKind | null;
  /** Set when the send is held by template pacing (answered `held_for_quality_assessment`). */
  held: PacingRule | null;
  /** Whether it reaches a user towards the portfolio's messaging limit. */
  counts: boolean;
  /** A test made the recipient unreachable: the message stays `sent` (unreachable-recipients.ts). */
  unreachable: boolean;
}

/**
 * Decides a send's fate before it is accepted. Inside a customer service window (the user wrote to this
 * number in the last 24 h) a template neither counts towards the messaging limit nor meets the per-user
 * marketing limit. A message known not to be delivered (131026, 131049) reaches nobody, so it does not count:
 * Meta's limit is on users messages are delivered to.
 */
export function decideFate(
  ctx: SandboxContext,
  portfolioId: string,
  phoneNumberId: string,
  recipient: string,
  template: MessageTemplate,
  now: number,
): SendFate {
  const { messaging, config } = ctx;
  const inWindow = messaging.reach.inServiceWindow(portfolioId, phoneNumberId, recipient, now);
  let failure: FailureKind | null = null;
  if (isUndeliverable(recipient)) failure = 'undeliverable';
  else if (template.category === 'MARKETING' && !inWindow) {
    const usPause = config.usMarketingRule && isUsNumber(recipient);
    if (usPause || messaging.faults.marketingLimited()) failure = 'marketing-limit';
  }
  const held = failure === null ? (messaging.pacing.hold(template.id) ?? null) : null;
  // An unreachable phone still counts: Meta cannot know it is off when it accepts the message.
  const unreachable = messaging.unreachable.has(recipient);
  return { failure, held, counts: failure === null && !inWindow, unreachable };
}

/** The statuses the accepted message will report: normal, failed, or held then released or dropped. */
export function planFor(ctx: SandboxContext, fate: SendFate, now: number): PlannedStatus[] {
  const { config } = ctx;
  if (fate.held?.outcome === 'drop') {
    const due = now + fate.held.afterMs;
    return [{ due, status: 'failed', timestamp: Math.floor(due / 1000) }];
  }
  // A released message goes out as if it had been accepted when it is released.
  const start = now + (fate.held?.afterMs ?? 0);
  return planStatuses(start, fate.failure !== null, {
    delaysMs: config.statusDelaysMs,
    deliveredRate: fate.unreachable ? 0 : config.deliveredRate,
    readRate: config.readRate,
    duplicateRate: config.duplicateRate,
    reorderRate: config.reorderRate,
    batchWindowMs: config.webhookBatchWindowMs,
  });
}
