import { z } from 'zod';
import { PageNumberSchema } from './paging';

/** Spec §9: the broadcast percentage slider. */
export const BROADCAST_PERCENTAGE = { min: 1, max: 100, default: 55 } as const;
export const BROADCAST_PAGE_SIZE = 10;
/** Scheduling more than a year ahead is refused (a typo, not a plan). */
export const MAX_SCHEDULE_AHEAD_SECONDS = 366 * 24 * 60 * 60;

/** Spec §5 and §8: the New broadcast screen's messages. */
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
]);

/** POST /broadcast/create/ (spec §3 Broadcast create payload). */
export const BroadcastCreateRequestSchema = z
  .object({
    name: z.string().trim().min(1, BROADCAST_MESSAGES.nameRequired).max(200),
    /** Herald's template id (the list's `id`). */
    template_id: z.coerce
      .number({ message: BROADCAST_MESSAGES.templateRequired })
      .int()
      .positive(BROADCAST_MESSAGES.templateRequired),
    recipients: BroadcastRecipientsSchema,
    /** Unix seconds; absent means send now. */
    scheduled_time: z.number().int().positive().optional(),
  })
  .meta({ id: 'BroadcastCreateRequest' });

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

/** Spec §3 Broadcast list row; percentages of total_recipients, 0–100 with one decimal. */
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
    total_recipients: z.number().int(),
    status: z.string(),
    template_name: z.string(),
  })
  .meta({ id: 'BroadcastRow' });

/** The eight summary cards of Broadcast history, over every broadcast of the account. */
export const BroadcastTotalsSchema = z
  .object({
    broadcasts: z.number().int(),
    recipients: z.number().int(),
    sent: z.number().int(),
    delivered: z.number().int(),
    read: z.number().int(),
    failed: z.number().int(),
    scheduled: z.number().int(),
    sending: z.number().int(),
  })
  .meta({ id: 'BroadcastTotals' });

export const BroadcastListQuerySchema = z.object({
  page: PageNumberSchema,
  search: z.string().trim().max(200).optional(),
  sort: z.enum(['latest', 'oldest']).default('latest'),
});

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
  sent: ['sent'],
  delivered: ['delivered'],
  read: ['read'],
  failed: ['failed'],
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

export const BROADCAST_REPORT_PAGE_SIZE = 25;

export const BroadcastReportParamsSchema = z.object({
  id: z.coerce.number({ message: 'must be a broadcast id' }).int().positive('must be a broadcast id'),
});

export const BroadcastReportQuerySchema = z.object({
  page: PageNumberSchema,
  outcome: z
    .enum(RECIPIENT_OUTCOME_NAMES as [RecipientOutcome, ...RecipientOutcome[]], {
      message: `must be one of ${RECIPIENT_OUTCOME_NAMES.join(', ')}`,
    })
    .optional(),
});

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
  })
  .meta({ id: 'BroadcastRecipient' });

export const BroadcastReportResponseSchema = z
  .object({
    broadcast: z.object({
      id: z.number().int(),
      name: z.string(),
      template_name: z.string(),
      status: z.string(),
    }),
    /** How many recipients have each outcome (all of them, whatever the filter). */
    outcomes: z.record(
      z.enum(RECIPIENT_OUTCOME_NAMES as [RecipientOutcome, ...RecipientOutcome[]]),
      z.number().int(),
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
