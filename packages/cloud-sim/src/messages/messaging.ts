import { BillingLedger } from '../pricing/billing-ledger';
import { TemplateAnalyticsLedger } from '../templates/template-analytics-ledger';
import { AcceptedLog } from './accepted-log';
import { Faults } from './faults';
import { MessageExpiry } from './message-expiry';
import { Pacing } from './pacing';
import { PairRateLimiter } from './pair-rate';
import { ReachWindows } from './reach-window';
import type { BatchSettings, PayloadSink } from './status-emitter';
import { StatusEmitter } from './status-emitter';
import { ThroughputLimiter } from './token-bucket';
import { TtlClock } from './ttl-clock';
import { UnreachableRecipients } from './unreachable-recipients';
import { UserIds } from './user-ids';
import { WamidGenerator } from './wamid';

/** Everything the messaging side keeps between calls; `reset` empties it, `stop` ends its timers. */
export class Messaging {
  readonly throughput = new ThroughputLimiter();
  readonly pairRate = new PairRateLimiter();
  readonly faults = new Faults();
  readonly accepted = new AcceptedLog();
  readonly wamids = new WamidGenerator();
  /** Per portfolio: users reached in the moving 24 hours, and open customer service windows (kept on disk). */
  readonly reach = new ReachWindows();
  readonly pacing = new Pacing();
  /** Every user's BSUID per portfolio, as webhooks carry it beside the number. */
  readonly userIds = new UserIds();
  /** What Meta would bill: the template messages delivered, priced (pricing_analytics reads it). */
  readonly billing = new BillingLedger();
  /** Per template and UTC day: sent, delivered, read and button taps (template_analytics reads it). */
  readonly templateAnalytics = new TemplateAnalyticsLedger();
  /** Recipients whose messages stay `sent` (a phone that is off), kept on disk. */
  readonly unreachable = new UnreachableRecipients();
  readonly statuses: StatusEmitter;
  /** Undelivered messages by expiry time, on a clock of their own that tests move forward. */
  readonly expiry: MessageExpiry;

  /** `onChange`: something the state file keeps changed outside a request (messages expired). */
  constructor(sink: PayloadSink, batch: () => BatchSettings, onChange: () => void = () => {}) {
    this.statuses = new StatusEmitter(sink, batch, (event) => {
      this.billing.observe(event);
      this.templateAnalytics.observe(event);
    });
    this.expiry = new MessageExpiry(
      new TtlClock(),
      (message, plan) => this.statuses.schedule(message, plan),
      onChange,
    );
  }

  reset(): void {
    this.statuses.stop();
    this.statuses.resetCounts();
    this.throughput.clear();
    this.pairRate.clear();
    this.faults.reset();
    this.accepted.clear();
    this.reach.clear();
    this.userIds.clear();
    this.pacing.clear();
    this.billing.clear();
    this.templateAnalytics.clear();
    this.expiry.clear();
    this.unreachable.clear();
  }

  stop(): void {
    this.statuses.stop();
    this.expiry.halt();
    this.faults.wakeAll();
  }

  /** Closing: no more statuses go out or messages expire, but both stay for the state file; waits end. */
  halt(): void {
    this.statuses.halt();
    this.expiry.halt();
    this.faults.wakeAll();
  }

  snapshot() {
    return {
      accepted_count: this.accepted.size,
      ...this.statuses.stats(),
      pending_expiries: this.expiry.pending,
      unreachable_recipients: this.unreachable.list(),
      faults: this.faults.view(),
    };
  }
}
