import { z } from 'zod';
import { DashboardQuerySchema } from './dashboard';
import { PageNumberSchema } from './paging';
import { SpendCapSchema } from './spend-cap';
import { LinkDestinationSchema } from './link-clicks';

/** The broadcast percentage slider. */
export const BROADCAST_PERCENTAGE = { min: 1, max: 100, default: 55 } as const;
export const BROADCAST_PAGE_SIZE = 10;
/** Scheduling more than a year ahead is refused (a typo, not a plan). */
export const MAX_SCHEDULE_AHEAD_SECONDS = 366 * 24 * 60 * 60;

/** The New broadcast screen's messages. */
export const BROADCAST_MESSAGES = {
  nameRequired: 'Please enter a broadcast name',
  templateRequired: 'Please select a message template',
  scheduleRequired: 'Please select a date and time for the scheduled broadcast',
  created: 'Broadcast created successfully!',
  failed: 'Failed to create broadcast. Please try again.',
  noWaba: 'No WABA ID found. Please set your WABA ID first.',
} as const;

/** The number of recipients a percentage of an audience gives: round(n × p / 100), as the engine samples. */
export function sampleSize(audience: number, percentage: number): number {
  return Math.round((audience * percentage) / 100);
}

const Percentage = z
  .number({ message: 'percentage must be a number from 1 to 100' })
  .int('percentage must be a whole number from 1 to 100')
  .min(BROADCAST_PERCENTAGE.min, 'percentage must be from 1 to 100')
  .max(BROADCAST_PERCENTAGE.max, 'percentage must be from 1 to 100');

export const BroadcastRecipientsSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('all'), percentage: Percentage }),
  z.object({
    type: z.literal('filtered'),
    tag_ids: z.array(z.number().int().positive()).min(1, 'Select at least one tag'),
    percentage: Percentage,
  }),
  /** A saved segment (GET /segments/): its rules as they are now, its members frozen when it starts. */
  z.object({
    type: z.literal('segment'),
    segment_id: z.number({ message: 'Choose a segment' }).int().positive('Choose a segment'),
    percentage: Percentage,
  }),
]);

/**
 * Retargeting: which recipients of an earlier broadcast, as the delivery report filters them
 * (GET /broadcast/{id}/recipients/ `outcome` and `replied`), plus `not_read` (sent or delivered, not read).
 * Neither field: every recipient of that broadcast.
 */
export const NOT_READ_STATES = ['sent', 'delivered'] as const;
// Written out (RECIPIENT_OUTCOMES is declared further down); the check below keeps it complete.
export const RETARGET_OUTCOMES = [
  'pending',
  'held',
  'sent',
  'delivered',
  'read',
  'failed',
  'limited',
  'not_on_whatsapp',
  'expired',
  'skipped',
  'unknown',
  'cancelled',
  'not_read',
] as const satisfies ReadonlyArray<RecipientOutcome | 'not_read'>;
export type RetargetOutcome = (typeof RETARGET_OUTCOMES)[number];
const everyOutcome: Exclude<RecipientOutcome, RetargetOutcome> extends never ? true : false = true;
void everyOutcome;

export const RetargetFilterSchema = z
  .object({
    outcome: z
      .enum(RETARGET_OUTCOMES, { message: `must be one of ${RETARGET_OUTCOMES.join(', ')}` })
      .optional(),
    replied: z.boolean({ message: 'must be true or false' }).optional(),
    /** true: only recipients who clicked the tracked link; false: only those who did not. */
    clicked: z.boolean({ message: 'must be true or false' }).optional(),
  })
  .meta({ id: 'RetargetFilter' });
export type RetargetFilter = z.infer<typeof RetargetFilterSchema>;

/** The message states a retarget filter's outcome stands for; null for every state. */
export function retargetStates(outcome: RetargetOutcome | undefined): string[] | null {
  if (outcome === undefined) return null;
  return outcome === 'not_read' ? [...NOT_READ_STATES] : [...RECIPIENT_OUTCOMES[outcome]];
}

/**
 * A broadcast's audience frozen as a list at creation: the recipients of an earlier broadcast of the same account
 * that match `filter` at that moment, opted-out contacts left out (decision 037).
 */
export const BroadcastAudienceSchema = z
  .object({
    kind: z.literal('broadcast_recipients', { message: 'must be broadcast_recipients' }),
    broadcast_id: z.number({ message: 'must be a broadcast id' }).int().positive('must be a broadcast id'),
    filter: RetargetFilterSchema.default({}),
  })
  .meta({ id: 'BroadcastAudience' });
export type BroadcastAudience = z.infer<typeof BroadcastAudienceSchema>;

export const RECIPIENTS_REQUIRED =
  'Choose the recipients: all contacts, tags or an earlier broadcast’s recipients';
/**
 * At least one of `recipients` (all or tags) and `audience` (an earlier broadcast's recipients). Both: the
 * earlier broadcast's recipients who are also in `recipients`, sampled to its percentage (decision 037).
 */
function someAudience(
  value: { recipients?: unknown; audience?: unknown },
  ctx: { addIssue: (issue: { code: 'custom'; message: string; path: string[] }) => void },
) {
  if (value.recipients === undefined && value.audience === undefined) {
    ctx.addIssue({ code: 'custom', message: RECIPIENTS_REQUIRED, path: ['recipients'] });
  }
}

/**
 * A follow-up: another template, `after_hours` after the broadcast's scheduled start, to those of its recipients
 * WhatsApp reported sent who did not read it, did not reply, or did not click its tracked link. Chosen when it
 * starts (not before its parent has completed), through the frequency cap, the messaging limit and opt-outs of
 * that moment; cancelled with its parent.
 */
export const FOLLOW_UP_UNLESS = ['read', 'replied', 'clicked'] as const;
export type FollowUpUnless = (typeof FOLLOW_UP_UNLESS)[number];
/** The follow-up's audience in words, as New broadcast and the history say it. */
export const FOLLOW_UP_AUDIENCE: Record<FollowUpUnless, string> = {
  read: 'did not read it',
  replied: 'did not reply',
  clicked: 'did not click its link',
};
export const FOLLOW_UP_MAX_HOURS = 30 * 24;
export const FollowUpRequestSchema = z
  .object({
    template_id: z.coerce
      .number({ message: 'Choose the follow-up’s template' })
      .int()
      .positive('Choose the follow-up’s template'),
    after_hours: z
      .number({ message: `must be a whole number of hours from 1 to ${FOLLOW_UP_MAX_HOURS}` })
      .int(`must be a whole number of hours from 1 to ${FOLLOW_UP_MAX_HOURS}`)
      .min(1, `must be a whole number of hours from 1 to ${FOLLOW_UP_MAX_HOURS}`)
      .max(FOLLOW_UP_MAX_HOURS, `must be a whole number of hours from 1 to ${FOLLOW_UP_MAX_HOURS}`),
    unless: z.enum(FOLLOW_UP_UNLESS, { message: `must be one of ${FOLLOW_UP_UNLESS.join(', ')}` }),
  })
  .meta({ id: 'FollowUpRequest' });
export type FollowUpRequest = z.infer<typeof FollowUpRequestSchema>;

/** POST /broadcast/create/: the broadcast create payload. */
export const BroadcastCreateRequestSchema = z
  .object({
    name: z.string().trim().min(1, BROADCAST_MESSAGES.nameRequired).max(200),
    /** Herald's template id (the list's `id`). */
    template_id: z.coerce
      .number({ message: BROADCAST_MESSAGES.templateRequired })
      .int()
      .positive(BROADCAST_MESSAGES.templateRequired),
    /** All contacts or tagged ones, sampled when the broadcast starts; with `audience`, narrows it. */
    recipients: BroadcastRecipientsSchema.optional(),
    /** A list frozen now (retargeting an earlier broadcast's recipients), narrowed by `recipients` if given. */
    audience: BroadcastAudienceSchema.optional(),
    /** Unix seconds; absent means send now. */
    scheduled_time: z.number().int().positive().optional(),
    /** Meta's id of the number to send from (GET /meta/phone-numbers/ `id`); absent means the account's first. */
    phone_number_id: z.string().trim().min(1, 'Choose a number to send from').max(64).optional(),
    /**
     * When the audience is larger than what is left of the 24-hour messaging limit: true sends up to the limit,
     * waits and continues as the window frees; false refuses the broadcast (400 naming `recipients`).
     */
    spread_over_limit: z.boolean().default(true),
    /** Leave out +1 (US) numbers, to which Meta does not deliver marketing templates (decision 026). */
    leave_out_us_numbers: z.boolean().default(false),
    /** Optional, in USD: sending pauses before the billable cost could pass it (decision 052). */
    spend_cap: SpendCapSchema.optional(),
    /**
     * Where the template's tracked link leads (LinkDestinationSchema); required when the template has one
     * (GET /broadcast/links/), refused otherwise.
     */
    link_destination: LinkDestinationSchema.optional(),
    /** Optional: a follow-up broadcast created with this one (FollowUpRequestSchema). */
    follow_up: FollowUpRequestSchema.optional(),
  })
  .superRefine(someAudience)
  .meta({ id: 'BroadcastCreateRequest' });

/**
 * POST /broadcast/estimate/: what New broadcast shows before sending. The same audience fields as create, so the
 * figures are the ones create will use.
 */
export const BroadcastEstimateRequestSchema = z
  .object({
    template_id: z.coerce
      .number({ message: BROADCAST_MESSAGES.templateRequired })
      .int()
      .positive(BROADCAST_MESSAGES.templateRequired)
      .optional(),
    recipients: BroadcastRecipientsSchema.optional(),
    audience: BroadcastAudienceSchema.optional(),
    phone_number_id: z.string().trim().min(1).max(64).optional(),
    leave_out_us_numbers: z.boolean().default(false),
    /**
     * When it would start (Unix seconds); absent: now. A category change Meta has announced for the template
     * applies to a broadcast starting at or after its date.
     */
    scheduled_time: z
      .number({ message: 'must be a time in Unix seconds' })
      .int('must be a time in Unix seconds')
      .positive('must be a time in Unix seconds')
      .optional(),
  })
  .superRefine(someAudience)
  .meta({ id: 'BroadcastEstimateRequest' });

/** The portfolio's messaging limit as Meta documents it: unique users reached in a rolling 24 hours. */
export const MessagingLimitSchema = z
  .object({
    /** Meta's tier (`whatsapp_business_manager_messaging_limit`), null while unknown. */
    tier: z.string().nullable(),
    /** Unique users per rolling 24 hours; null means unlimited (or unknown tier). */
    limit: z.number().int().nullable(),
    /** Unique users reached by business-initiated messages in the last 24 hours, across the portfolio's numbers. */
    reached: z.number().int(),
    /** limit − reached, never below 0; null when unlimited. */
    left: z.number().int().nullable(),
    /** When the oldest reach in the window expires (one more user can be reached then); null when nothing waits. */
    frees_at: z.string().nullable(),
  })
  .meta({ id: 'MessagingLimit' });

export const BroadcastEstimateResponseSchema = z
  .object({
    /** Recipients the broadcast would have now (after the percentage and any US leave-out). */
    recipients: z.number().int(),
    /** Of those, how many are not already reached in the window: what the broadcast takes from the limit. */
    new_recipients: z.number().int(),
    /** Recipients with +1 (US) numbers when the template is MARKETING (0 otherwise, or when left out). */
    us_numbers: z.number().int(),
    template_category: z.string().nullable(),
    messaging_limit: MessagingLimitSchema,
    /** The chosen contacts who are not sent to, and why, counted before the percentage samples the rest. */
    left_out: z.object({
      /** Opted out of the account's broadcasts. */
      opted_out: z.number().int(),
      /** +1 (US) numbers left out of a marketing template (0 when kept, or for other categories). */
      us_numbers: z.number().int(),
    }),
    /**
     * The account's frequency cap, for a marketing template (null otherwise, or with no cap): of the recipients,
     * how many already had `messages` marketing messages in the last `days` days and would be skipped if it
     * started now. Optional for answers of servers before it.
     */
    frequency_cap: z
      .object({ messages: z.number().int(), days: z.number().int(), skipped: z.number().int() })
      .nullable()
      .optional(),
  })
  .meta({ id: 'BroadcastEstimateResponse' });

/** Meta's portfolio tiers (`whatsapp_business_manager_messaging_limit`) and the deprecated per-number ones. */
export const MESSAGING_LIMIT_OF_TIER: Record<string, number | null> = {
  TIER_50: 50,
  TIER_250: 250,
  TIER_1K: 1_000,
  TIER_2K: 2_000,
  TIER_10K: 10_000,
  TIER_100K: 100_000,
  TIER_UNLIMITED: null,
};

/** New broadcast's audience line: "N recipients · M left in your 24-hour limit". */
export function audienceLimitLine(recipients: number, left: number | null): string {
  const n = `${recipients.toLocaleString('en-US')} recipient${recipients === 1 ? '' : 's'}`;
  return left === null ? n : `${n} · ${left.toLocaleString('en-US')} left in your 24-hour limit`;
}

/** The 400 (field `recipients`) for a broadcast larger than what is left, when spreading is off. */
export function overLimitMessage(newRecipients: number, left: number): string {
  return `This broadcast would reach ${newRecipients.toLocaleString('en-US')} new recipients, but only ${left.toLocaleString('en-US')} are left in your 24-hour messaging limit. Send to fewer recipients or let Herald spread it.`;
}

/** The history's status line for a broadcast waiting for the window to free ('HH:MM' in the user's time zone). */
export function waitingForLimitLine(resumesAt: string): string {
  return `Waiting for messaging limit — resumes about ${resumesAt}`;
}

export const BROADCAST_STATUSES = [
  'scheduled',
  'sending',
  'paused',
  'completed',
  'cancelled',
  'failed',
] as const;

export const BroadcastCreateResponseSchema = z
  .object({ id: z.number().int(), status: z.string(), total_recipients: z.number().int() })
  .meta({ id: 'BroadcastCreateResponse' });

/**
 * Broadcast list row; percentages of total_recipients, 0–100 with one decimal. `sent_percentage` counts
 * what WhatsApp reported sent (sent, delivered or read); messages WhatsApp accepted but has not yet reported
 * are `handed_percentage` (decision 036).
 */
export const BroadcastRowSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    /** ISO 8601: when it starts (or started). */
    scheduled: z.string(),
    delivered_percentage: z.number(),
    read_percentage: z.number(),
    sent_percentage: z.number(),
    failed_percentage: z.number(),
    /** Messages whose fate WhatsApp never told in time (decision 022); a later status moves them on. */
    unknown_percentage: z.number(),
    /** Limited by WhatsApp (131049, the per-user marketing limit) and Not on WhatsApp (131026), apart from failed. */
    limited_percentage: z.number(),
    not_on_whatsapp_percentage: z.number(),
    /**
     * Expired: WhatsApp dropped the message undelivered at the end of its time-to-live (a phone off for that
     * long), apart from failed. Optional for answers of servers before it.
     */
    expired_percentage: z.number().optional(),
    /** Skipped by the account's frequency cap (decision 098), not sent. Optional for answers of servers before it. */
    skipped_percentage: z.number().optional(),
    total_recipients: z.number().int(),
    status: z.string(),
    template_name: z.string(),
    /** The number it sends from, as Meta displays it. */
    phone_number: z.string().nullable(),
    /** Set while a sending broadcast waits for the 24-hour messaging limit: when it should resume (ISO 8601). */
    waiting_until: z.string().nullable(),
    /** Why it is paused (or failed) when Herald or WhatsApp did it, e.g. WhatsApp paused its template. */
    status_reason: z.string().nullable(),
    /** Recipients who replied (REPLY_DEFINITIONS.replied), as a percentage of total_recipients, one decimal. */
    replied_percentage: z.number(),
    /** Handed to WhatsApp (accepted by Meta, held, or in flight) with no 'sent' status yet (decision 036). */
    handed_percentage: z.number(),
    /**
     * A paused broadcast with nothing left for Herald to send: every message is already with WhatsApp (or ended),
     * so the pause holds nothing back. The history says 'All handed to WhatsApp' instead of 'Paused'.
     */
    all_handed: z.boolean(),
    /** Its spend cap in USD (decision 052); null without one. Optional for answers of servers before it. */
    spend_cap: z.number().nullable().optional(),
    /**
     * Recipients who clicked its tracked link, as a percentage of total_recipients, one decimal; null when the
     * broadcast has no tracked link.
     */
    clicked_percentage: z.number().nullable().optional(),
    /**
     * Set on a follow-up: the broadcast it follows up, and whom it goes to. Optional for answers of servers
     * before it.
     */
    follow_up_of: z
      .object({
        id: z.number().int(),
        name: z.string(),
        unless: z.enum(FOLLOW_UP_UNLESS),
        after_hours: z.number().int(),
      })
      .nullable()
      .optional(),
  })
  .meta({ id: 'BroadcastRow' });

/**
 * The eight summary cards of Broadcast history, over the broadcasts the list shows (its date range and search).
 * `recipients` counts broadcasts that have started, so a scheduled broadcast's recipients are not counted as
 * unsent; theirs are `scheduled_recipients` (decision 036).
 */
export const BroadcastTotalsSchema = z
  .object({
    broadcasts: z.number().int(),
    recipients: z.number().int(),
    /** Recipients of the scheduled broadcasts (their estimate until they start). */
    scheduled_recipients: z.number().int(),
    /** Reported sent by WhatsApp (sent, delivered or read). */
    sent: z.number().int(),
    /** Handed to WhatsApp with no 'sent' status yet (accepted by Meta, held, in flight). */
    handed: z.number().int(),
    delivered: z.number().int(),
    read: z.number().int(),
    failed: z.number().int(),
    /** Of the failed-looking ones: limited by WhatsApp (131049) and not on WhatsApp (131026), not in `failed`. */
    limited: z.number().int(),
    not_on_whatsapp: z.number().int(),
    /** Dropped undelivered at the end of their time-to-live, not in `failed`. */
    expired: z.number().int().optional(),
    /** Skipped by the frequency cap, never sent: not in `failed`. */
    skipped: z.number().int().optional(),
    scheduled: z.number().int(),
    sending: z.number().int(),
  })
  .meta({ id: 'BroadcastTotals' });

const { from: LocalDay, tz: TimeZone } = DashboardQuerySchema.shape;

/**
 * GET /broadcast/create/ and /broadcast/export.csv. `from` and `to` are local days in `tz` (both included) of
 * the broadcasts' Scheduled time, as the Dashboard reads them; either may be left out.
 */
export const BroadcastListQuerySchema = z
  .object({
    page: PageNumberSchema,
    search: z.string().trim().max(200).optional(),
    sort: z.enum(['latest', 'oldest'], { message: 'must be latest or oldest' }).default('latest'),
    from: LocalDay,
    to: LocalDay,
    tz: TimeZone,
  })
  .superRefine((q, ctx) => {
    if (q.from && q.to && q.from > q.to)
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'must not be before from' });
  });

/** The history's CSV (GET /broadcast/export.csv): one line per broadcast the list shows, in its order. */
export const BROADCAST_HISTORY_CSV_COLUMNS = [
  'id',
  'name',
  'template',
  'scheduled',
  'status',
  'recipients',
  'sent_percentage',
  'handed_percentage',
  'delivered_percentage',
  'read_percentage',
  'replied_percentage',
  'failed_percentage',
] as const;

/** A delivery report's CSV (GET /broadcast/{id}/recipients/export.csv): one line per recipient of the filter. */
export const BROADCAST_REPORT_CSV_COLUMNS = [
  'name',
  'whatsapp_number',
  'outcome',
  'error_code',
  'error_title',
  'last_update',
  'reply',
  'replied_at',
] as const;

export const BroadcastListResponseSchema = z
  .object({
    count: z.number().int(),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    results: z.array(BroadcastRowSchema),
    totals: BroadcastTotalsSchema,
  })
  .meta({ id: 'BroadcastList' });

/** What a user may do to a broadcast after creating it, and the statuses each one applies to. */
export const BROADCAST_ACTIONS = {
  pause: { from: ['sending'], to: 'paused', label: 'Pause', done: 'paused' },
  resume: { from: ['paused'], to: 'sending', label: 'Resume', done: 'resumed' },
  cancel: { from: ['scheduled', 'sending', 'paused'], to: 'cancelled', label: 'Cancel', done: 'cancelled' },
} as const satisfies Record<string, { from: readonly string[]; to: string; label: string; done: string }>;
export type BroadcastAction = keyof typeof BROADCAST_ACTIONS;

/** The actions a broadcast in `status` allows, in display order. */
export function broadcastActionsFor(status: string): BroadcastAction[] {
  return (Object.keys(BROADCAST_ACTIONS) as BroadcastAction[]).filter((action) =>
    (BROADCAST_ACTIONS[action].from as readonly string[]).includes(status.toLowerCase()),
  );
}

export const BroadcastActionParamsSchema = z.object({
  id: z.coerce.number({ message: 'must be a broadcast id' }).int().positive('must be a broadcast id'),
  action: z.enum(['pause', 'resume', 'cancel'], { message: 'must be pause, resume or cancel' }),
});

export const BroadcastActionResponseSchema = z
  .object({ id: z.number().int(), status: z.string() })
  .meta({ id: 'BroadcastActionResponse' });
export type BroadcastActionResponse = z.infer<typeof BroadcastActionResponseSchema>;

export type BroadcastCreateRequest = z.infer<typeof BroadcastCreateRequestSchema>;
export type BroadcastEstimateRequest = z.infer<typeof BroadcastEstimateRequestSchema>;
export type BroadcastEstimateResponse = z.infer<typeof BroadcastEstimateResponseSchema>;
export type MessagingLimit = z.infer<typeof MessagingLimitSchema>;
export type BroadcastCreateResponse = z.infer<typeof BroadcastCreateResponseSchema>;
export type BroadcastRow = z.infer<typeof BroadcastRowSchema>;
export type BroadcastTotals = z.infer<typeof BroadcastTotalsSchema>;
export type BroadcastListQuery = z.infer<typeof BroadcastListQuerySchema>;
export type BroadcastListResponse = z.infer<typeof BroadcastListResponseSchema>;

/**
 * The delivery report of one broadcast: every recipient with how far its message got. Outcomes group the
 * message states a user tells apart; `pending` covers the states on the way to Meta, `unknown` a message
 * whose fate WhatsApp never told within MESSAGE_OUTCOME_TIMEOUT_SECONDS (a later status still updates it).
 */
export const RECIPIENT_OUTCOMES = {
  pending: ['queued', 'sending', 'accepted', 'unconfirmed'],
  /** Meta answered held_for_quality_assessment (template pacing): neither failed nor retried; a status settles it. */
  held: ['held'],
  sent: ['sent'],
  delivered: ['delivered'],
  read: ['read'],
  failed: ['failed'],
  /** 131049, Meta's per-user marketing limit: retried no sooner than 24 hours later, a few times at most. */
  limited: ['limited'],
  /** 131026: the number cannot receive WhatsApp messages; never retried. */
  not_on_whatsapp: ['not_on_whatsapp'],
  /**
   * WhatsApp kept trying for the message's time-to-live and dropped it undelivered (the phone was off, or
   * without a connection, that long): not a failure of the message or the number; never retried.
   */
  expired: ['expired'],
  /**
   * Not sent: the person already had the account's frequency cap of marketing messages in its window
   * (decision 098). Not a failure; never retried.
   */
  skipped: ['skipped'],
  /** No status webhook settled it in time (decision 022): it may or may not have been delivered. */
  unknown: ['unknown'],
  cancelled: ['cancelled'],
} as const satisfies Record<string, readonly string[]>;
export type RecipientOutcome = keyof typeof RECIPIENT_OUTCOMES;
export const RECIPIENT_OUTCOME_NAMES = Object.keys(RECIPIENT_OUTCOMES) as RecipientOutcome[];

/** The outcome of a message in `state`. */
export function recipientOutcome(state: string): RecipientOutcome {
  return (
    RECIPIENT_OUTCOME_NAMES.find((outcome) =>
      (RECIPIENT_OUTCOMES[outcome] as readonly string[]).includes(state),
    ) ?? 'pending'
  );
}

/** Every state a message row may be in (the table's check constraint; RECIPIENT_OUTCOMES groups them). */
export const MESSAGE_STATES = [
  'queued',
  'sending',
  'accepted',
  'held',
  'sent',
  'delivered',
  'read',
  'failed',
  'unconfirmed',
  'unknown',
  'limited',
  'not_on_whatsapp',
  'expired',
  'skipped',
  'cancelled',
] as const;
export type MessageState = (typeof MESSAGE_STATES)[number];

/**
 * The state changes the server's one writer of message rows makes (message-rows.ts): each state → the states
 * it may move to. A status webhook moves any row not final forward (sent, delivered, read, or a failure), never
 * back, and never a delivered one to failed (or expired); `read` and `not_on_whatsapp` are final. A delivery outranks a
 * failure Meta reports for the same message, in either order: a failed row Meta reports delivered moves to
 * delivered or read, keeping its error (decision 078). A status may also reach a queued or cancelled row: one
 * attempt of it was requested before it went back to the queue.
 */
const STATUS_MOVES = [
  'sent',
  'delivered',
  'read',
  'failed',
  'limited',
  'not_on_whatsapp',
  'expired',
] as const;
export const MESSAGE_TRANSITIONS = {
  queued: ['sending', 'cancelled', ...STATUS_MOVES],
  sending: ['queued', 'accepted', 'held', 'unconfirmed', 'skipped', ...STATUS_MOVES],
  accepted: STATUS_MOVES,
  held: STATUS_MOVES,
  unconfirmed: ['accepted', 'held', 'unknown', ...STATUS_MOVES],
  unknown: ['accepted', 'held', ...STATUS_MOVES],
  cancelled: STATUS_MOVES,
  sent: ['delivered', 'read', 'failed', 'limited', 'not_on_whatsapp', 'expired'],
  delivered: ['read'],
  read: [],
  failed: ['delivered', 'read'],
  limited: ['queued'],
  not_on_whatsapp: [],
  // Like a failure: only a delivery of that very message lifts it (decision 078).
  expired: ['delivered', 'read'],
  // Never requested: no status can reach it.
  skipped: [],
} as const satisfies Record<MessageState, readonly MessageState[]>;

/** One allowed state change, as a [from, to] pair: lets TypeScript reject a change the map does not allow. */
export type MessageTransition = {
  [F in MessageState]: readonly [F, (typeof MESSAGE_TRANSITIONS)[F][number]];
}[MessageState];

export const BROADCAST_REPORT_PAGE_SIZE = 25;

export const BroadcastReportParamsSchema = z.object({
  id: z.coerce.number({ message: 'must be a broadcast id' }).int().positive('must be a broadcast id'),
});

/**
 * Customers' replies to a broadcast. A reply is any message the recipient sent that Herald linked to
 * the broadcast's message: its `context.id` is that message's wamid, or else it is the latest broadcast message
 * the number received (sent, delivered or read) in the 24 hours before. Button presses and reactions count too.
 */
export const REPLY_DEFINITIONS = {
  replied: 'Recipients who answered the broadcast message: a reply, a button press or a reaction.',
  reply_rate:
    'Recipients whose message was delivered (delivered or read) and who replied ÷ recipients whose message was delivered.',
} as const;

/** The kinds of inbound message Herald stores; anything else WhatsApp sends is kept as `other`. */
export const INBOUND_KINDS = [
  'text',
  'button',
  'interactive',
  'image',
  'video',
  'document',
  'audio',
  'sticker',
  'location',
  'contacts',
  'reaction',
  'other',
] as const;
export type InboundKind = (typeof INBOUND_KINDS)[number];

/** Presses and reactions engage without writing: the dashboard's Response Rate leaves them out (dashboard.ts). */
export const PRESS_KINDS: readonly InboundKind[] = ['button', 'interactive', 'reaction'];

/**
 * The report's reply rate, 0–100 with one decimal; 0 when nothing was delivered. `repliedDelivered` counts only
 * recipients whose message is delivered or read (a part of `deliveredOrRead`), so the rate never passes 100.
 */
export function replyRate(repliedDelivered: number, deliveredOrRead: number): number {
  return deliveredOrRead === 0 ? 0 : Math.round((repliedDelivered / deliveredOrRead) * 1000) / 10;
}

/** A query-string boolean: only 'true' and 'false' (z.coerce.boolean would take 'false' as true). */
const QueryBoolean = z
  .enum(['true', 'false'], { message: 'must be true or false' })
  .transform((v) => v === 'true');

export const BroadcastReportQuerySchema = z.object({
  page: PageNumberSchema,
  /** One outcome, or `not_read`: sent or delivered and not read (retargetStates). */
  outcome: z
    .enum(RETARGET_OUTCOMES, { message: `must be one of ${RETARGET_OUTCOMES.join(', ')}` })
    .optional(),
  /** `replied=true`: only recipients who replied; `false`: only those who did not. Combines with `outcome`. */
  replied: QueryBoolean.optional(),
  /** `clicked=true`: only recipients who clicked the tracked link; `false`: only those who did not. */
  clicked: QueryBoolean.optional(),
});

/** A recipient's first reply: its text (the caption, the button's text, the emoji), else null and only its kind. */
export const RecipientReplySchema = z
  .object({
    text: z.string().nullable(),
    kind: z.enum(INBOUND_KINDS),
    /** ISO 8601: when the recipient sent it (WhatsApp's timestamp). */
    at: z.string(),
  })
  .meta({ id: 'RecipientReply' });
export type RecipientReply = z.infer<typeof RecipientReplySchema>;

export const BroadcastRecipientSchema = z
  .object({
    id: z.number().int(),
    /** Null once the contact has been deleted; the number stays. */
    contact_name: z.string().nullable(),
    whatsapp_number: z.string(),
    outcome: z.enum(RECIPIENT_OUTCOME_NAMES as [RecipientOutcome, ...RecipientOutcome[]]),
    /** Meta's error code and title when the message failed; for an unknown outcome, why it is unknown. */
    error_code: z.number().int().nullable(),
    error_title: z.string().nullable(),
    /** When the message last moved (accepted, delivered, read or failed); null while it waits. */
    updated_at: z.string().nullable(),
    /** The recipient's first reply to this message; null when none. */
    reply: RecipientReplySchema.nullable(),
    /** ISO 8601: the recipient's first click on the tracked link; null when none (or no tracked link). */
    clicked_at: z.string().nullable().optional(),
  })
  .meta({ id: 'BroadcastRecipient' });

/**
 * A broadcast's audience as its report describes it: all contacts or tagged ones (sampled to `percentage` when it
 * starts, opted-out contacts left out), or a list frozen from an earlier broadcast's recipients.
 */
export const BroadcastAudienceSummarySchema = z
  .object({
    type: z.enum(['all', 'filtered', 'list', 'segment']),
    /** The tags' names (type filtered); a deleted tag is left out. */
    tags: z.array(z.string()),
    percentage: z.number().int(),
    /** +1 (US) numbers left out (decision 026). */
    leave_out_us: z.boolean(),
    /** The earlier broadcast a list came from (type list), when known. */
    from_broadcast_id: z.number().int().nullable(),
    /** Its recipients: the estimate made at creation until it starts, then the exact count. */
    recipients: z.number().int(),
    /** Type segment: the segment's name and its rules in words, as they were when the broadcast was created. */
    segment: z
      .object({ id: z.number().int(), name: z.string(), rules: z.array(z.string()) })
      .nullable()
      .optional(),
  })
  .meta({ id: 'BroadcastAudienceSummary' });
export type BroadcastAudienceSummary = z.infer<typeof BroadcastAudienceSummarySchema>;

export const BroadcastReportResponseSchema = z
  .object({
    broadcast: z.object({
      id: z.number().int(),
      name: z.string(),
      template_name: z.string(),
      status: z.string(),
      /** ISO 8601: when it starts (or started). */
      scheduled: z.string(),
      /** Who it goes to: for a scheduled broadcast, who will receive it (chosen when it starts). */
      audience: BroadcastAudienceSummarySchema,
      /** Its spend cap in USD (decision 052); null without one. Optional for answers of servers before it. */
      spend_cap: z.number().nullable().optional(),
      /** Where its tracked link leads; null when the broadcast has none (no Clicked column or filter then). */
      link_destination: z.string().nullable().optional(),
    }),
    /** How many recipients have each outcome (all of them, whatever the filter). */
    outcomes: z.record(
      z.enum(RECIPIENT_OUTCOME_NAMES as [RecipientOutcome, ...RecipientOutcome[]]),
      z.number().int(),
    ),
    /** Recipients who replied (all of them, whatever the filter): the Replied filter's count. */
    replied: z.number().int(),
    /**
     * replyRate(replied among delivered + read, delivered + read outcomes): 0–100, one decimal
     * (REPLY_DEFINITIONS.reply_rate). A reply to a message not delivered counts in `replied` only.
     */
    reply_rate: z.number(),
    /** Recipients who clicked the tracked link (all of them, whatever the filter): the Clicked filter's count. */
    clicked: z.number().int().optional(),
    /** clickRate(clicked, delivered + read outcomes) (CLICK_DEFINITIONS.click_rate); null when none delivered. */
    click_rate: z.number().nullable().optional(),
    /** Why messages did not arrive, grouped by Meta's error code (or Herald's reason), most frequent first. */
    failure_reasons: z.array(
      z.object({
        /** Meta's error code; null for a reason Herald found itself (opted out, missing value). */
        code: z.number().int().nullable(),
        /** The outcome these messages have (failed, limited, not_on_whatsapp, unknown). */
        outcome: z.enum(RECIPIENT_OUTCOME_NAMES as [RecipientOutcome, ...RecipientOutcome[]]),
        title: z.string(),
        count: z.number().int(),
        /** In plain words: what happened and what to do (failure-reasons.ts). */
        explanation: z.string(),
        action: z.string(),
      }),
    ),
    count: z.number().int(),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    results: z.array(BroadcastRecipientSchema),
  })
  .meta({ id: 'BroadcastReport' });

export type BroadcastRecipient = z.infer<typeof BroadcastRecipientSchema>;
export type BroadcastReportQuery = z.infer<typeof BroadcastReportQuerySchema>;
export type BroadcastReport = z.infer<typeof BroadcastReportResponseSchema>;
