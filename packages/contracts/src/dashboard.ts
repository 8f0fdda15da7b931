import { z } from 'zod';
import { AccountHealthResponseSchema } from './account-health';

/**
 * The Dashboard: the selected account's figures for a date range in the user's time zone, each card
 * against the previous period of the same length. Every figure counts broadcast (template) messages by the hour
 * Meta accepted them, so a message and everything that happens to it (delivery, read, reply) land on one day and
 * no rate can pass 100 % (decision 032). Definitions here are the cards' tooltips and docs/dashboard.md's.
 */
export const DASHBOARD_CARDS = {
  total_messages: {
    title: 'Total Messages',
    unit: 'count',
    definition: 'Template messages sent: broadcast messages WhatsApp accepted in the period.',
  },
  delivery_rate: {
    title: 'Delivery Rate',
    unit: 'percent',
    definition: 'Delivered ÷ sent: of the messages sent in the period, the share delivered (or read).',
  },
  read_rate: {
    title: 'Read Rate',
    unit: 'percent',
    definition: 'Read ÷ delivered: of the messages delivered, the share the recipient read.',
  },
  response_rate: {
    title: 'Response Rate',
    unit: 'percent',
    definition:
      'Recipients who replied within 24 hours of delivery ÷ delivered. A reply is a message they wrote; button presses and reactions count in Engagement Rate.',
  },
  avg_response_time: {
    title: 'Avg. Response Time',
    unit: 'seconds',
    definition: 'Average time from delivery to the first reply, over the replies counted in Response Rate.',
  },
  failed_messages: {
    title: 'Failed Messages',
    unit: 'count',
    definition:
      'Messages that failed (refused by WhatsApp or not sent). Limited, not-on-WhatsApp and expired messages are not counted.',
  },
  engagement_rate: {
    title: 'Engagement Rate',
    unit: 'percent',
    definition: 'Recipients who replied, pressed a button or reacted (at any time) ÷ delivered.',
  },
  active_contacts: {
    title: 'Active Contacts',
    unit: 'count',
    definition:
      'Contacts who received a broadcast message or sent a message in the period, each counted once.',
  },
} as const satisfies Record<
  string,
  { title: string; unit: 'count' | 'percent' | 'seconds'; definition: string }
>;
export type DashboardCardKey = keyof typeof DASHBOARD_CARDS;
export const DASHBOARD_CARD_KEYS = Object.keys(DASHBOARD_CARDS) as DashboardCardKey[];

/** The charts' titles and what each plots (all from the same daily figures as the cards). */
export const DASHBOARD_CHARTS = {
  message_overview: { title: 'Message Overview', definition: 'Messages sent, delivered and read per day.' },
  message_types: { title: 'Message Types', definition: 'Messages sent in the period by template category.' },
  engagement_rate: { title: 'Engagement Rate', definition: 'Engagement Rate of each day’s messages.' },
  response_time: { title: 'Response Time', definition: 'Average response time of each day’s messages.' },
} as const;

/** Default range: the last 30 days, today included. Longer than a year and a day is refused (400 naming `to`). */
export const DASHBOARD_DEFAULT_DAYS = 30;
export const DASHBOARD_MAX_DAYS = 366;

/** Whether Intl knows `tz` as an IANA time zone (what the server and the browser both use). */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const Day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine(
    (d) =>
      !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
    {
      message: 'must be a real date YYYY-MM-DD',
    },
  );

/**
 * GET /dashboard/ and /dashboard/export.csv. `from` and `to` are local days in `tz`, both included; absent
 * means the last DASHBOARD_DEFAULT_DAYS days ending today in `tz`. `tz` defaults to UTC.
 */
export const DashboardQuerySchema = z
  .object({
    from: Day.optional(),
    to: Day.optional(),
    tz: z
      .string()
      .max(64)
      .refine(isTimeZone, { message: 'must be an IANA time zone, e.g. Europe/Paris' })
      .default('UTC'),
  })
  .superRefine((q, ctx) => {
    if (q.from && q.to) {
      if (q.from > q.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'must not be before from' });
      else if (dayCount(q.from, q.to) > DASHBOARD_MAX_DAYS)
        ctx.addIssue({
          code: 'custom',
          path: ['to'],
          message: `must be at most ${DASHBOARD_MAX_DAYS} days after from`,
        });
    }
  });
export type DashboardQuery = z.infer<typeof DashboardQuerySchema>;

/** Days from `from` to `to`, both included. */
export function dayCount(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** Relative change from previous to value, in percent with one decimal; null when previous is 0 or missing. */
export function percentChange(value: number | null, previous: number | null): number | null {
  if (value === null || previous === null || previous === 0) return null;
  return Math.round(((value - previous) / previous) * 1000) / 10;
}

export const DashboardCardSchema = z
  .object({
    key: z.enum(DASHBOARD_CARD_KEYS as [DashboardCardKey, ...DashboardCardKey[]]),
    title: z.string(),
    unit: z.enum(['count', 'percent', 'seconds']),
    definition: z.string(),
    /**
     * Percent cards: 0–100, one decimal; seconds: whole seconds. Null when it cannot be computed (no delivery), and
     * for Active Contacts of a past range on a large account while Herald is still counting it: a refresh a few
     * seconds later shows it (decision 032).
     */
    value: z.number().nullable(),
    previous: z.number().nullable(),
    /** percentChange(value, previous): relative change in percent; null when there is nothing to compare. */
    change: z.number().nullable(),
  })
  .meta({ id: 'DashboardCard' });

/** One local day's figures: the charts' data and the CSV's rows. Counts of the messages sent that day. */
export const DashboardDaySchema = z
  .object({
    date: z.string(),
    sent: z.number().int(),
    delivered: z.number().int(),
    read: z.number().int(),
    failed: z.number().int(),
    /** Recipients who replied within 24 h of delivery (Response Rate's numerator). */
    replied: z.number().int(),
    /** Recipients who replied, pressed a button or reacted (Engagement Rate's numerator). */
    engaged: z.number().int(),
    engagement_rate: z.number().nullable(),
    response_rate: z.number().nullable(),
    /** Whole seconds; null when no reply counted that day. */
    avg_response_seconds: z.number().nullable(),
    /** Recipients of that day's messages who clicked a tracked link (CLICK_DEFINITIONS.clicked). */
    clicked: z.number().int().optional(),
  })
  .meta({ id: 'DashboardDay' });

export const ACTIVITY_KINDS = ['broadcast', 'import', 'template'] as const;

export const DashboardActivitySchema = z
  .object({
    kind: z.enum(ACTIVITY_KINDS),
    /** e.g. the broadcast's or template's name, or 'Contacts imported'. */
    title: z.string(),
    /** e.g. 'Completed', 'Approved', '120 created, 3 updated'. */
    detail: z.string(),
    at: z.string(),
    /** The web path of its screen: /broadcast/:id, /customers, /templates. */
    link: z.string(),
  })
  .meta({ id: 'DashboardActivity' });

export const DashboardResponseSchema = z
  .object({
    range: z.object({ from: z.string(), to: z.string(), tz: z.string(), days: z.number().int() }),
    /** The previous period of the same length, just before `range`. */
    previous_range: z.object({ from: z.string(), to: z.string() }),
    /** True when the account has never sent a broadcast message nor received one: the web adds a no-data note. */
    empty: z.boolean(),
    cards: z.array(DashboardCardSchema),
    days: z.array(DashboardDaySchema),
    /** Messages sent in the range by template category (MARKETING, UTILITY, AUTHENTICATION), largest first. */
    categories: z.array(z.object({ category: z.string(), sent: z.number().int() })),
    /**
     * Tracked-link clicks of the messages sent in the range (each recipient once per broadcast) against the
     * previous period; `rate` is clicked ÷ delivered messages of broadcasts with a tracked link (null without one).
     */
    clicks: z
      .object({
        clicked: z.number().int(),
        previous: z.number().int(),
        change: z.number().nullable(),
        rate: z.number().nullable(),
      })
      .optional(),
    /**
     * Messages sent in the range (and the previous period) that WhatsApp dropped undelivered at the end of their
     * time-to-live: an outcome of their own, not in Failed Messages.
     */
    expired: z.object({ count: z.number().int(), previous: z.number().int() }).optional(),
    /** The latest broadcasts, imports and template status changes, newest first (at most 10). */
    recent_activity: z.array(DashboardActivitySchema),
  })
  .meta({ id: 'Dashboard' });

/** The CSV export's columns, in order (one row per local day of the range). */
export const DASHBOARD_CSV_COLUMNS = [
  'date',
  'sent',
  'delivered',
  'read',
  'failed',
  'replied',
  'engaged',
  'delivery_rate',
  'read_rate',
  'response_rate',
  'engagement_rate',
  'avg_response_seconds',
  'clicked',
] as const;

/** The bell's events. */
export const HEADER_EVENT_KINDS = [
  'template_approved',
  'template_rejected',
  'template_paused',
  'template_disabled',
  'broadcast_completed',
  'broadcast_waiting',
  'broadcast_paused',
  'import_finished',
  /** What WhatsApp did to the account: a ban, restriction, violation, review or lost access, and its lifting. */
  'account_standing',
  /** What WhatsApp tells the business without changing its standing: account alerts, PIN changes, errors. */
  'account_alert',
] as const;
export type HeaderEventKind = (typeof HEADER_EVENT_KINDS)[number];

export const HeaderEventSchema = z
  .object({
    id: z.number().int(),
    kind: z.enum(HEADER_EVENT_KINDS),
    title: z.string(),
    detail: z.string(),
    at: z.string(),
    link: z.string(),
    unread: z.boolean(),
  })
  .meta({ id: 'HeaderEvent' });

/** GET /dashboard/header: the side navigation's Customers badge and the header's bell. */
export const DashboardHeaderResponseSchema = z
  .object({
    /** The account's contact count (the Customers badge). */
    contacts: z.number().int(),
    /** The latest events, newest first (at most HEADER_EVENTS_SHOWN). */
    events: z.array(HeaderEventSchema),
    /** Events after the user's "seen up to" time: the bell's badge (0 shows none). */
    unread: z.number().int(),
    /**
     * The account's Other Settings the chrome shows on every screen (the dark theme, the Beta badge), read
     * with the badges so a page costs no extra request (decision 040). Absent from an older server.
     */
    appearance: z.object({ dark_theme: z.boolean(), beta_features: z.boolean() }).optional(),
    /**
     * What WhatsApp did to the account (a ban, restrictions in force, a recent violation): the banner on every
     * screen, read with the badges for the same reason (decision 077). Absent while the account is in good
     * standing, and from an older server.
     */
    account_health: AccountHealthResponseSchema.optional(),
  })
  .meta({ id: 'DashboardHeader' });
export const HEADER_EVENTS_SHOWN = 10;

/** POST /dashboard/header/seen: everything up to now is seen (body optional: `up_to` an event's `at`). */
export const DashboardSeenRequestSchema = z
  .object({ up_to: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 time' }).optional() })
  .default({});
export const DashboardSeenResponseSchema = z.object({ unread: z.number().int() });

export type DashboardCard = z.infer<typeof DashboardCardSchema>;
export type DashboardDay = z.infer<typeof DashboardDaySchema>;
export type DashboardActivity = z.infer<typeof DashboardActivitySchema>;
export type DashboardResponse = z.infer<typeof DashboardResponseSchema>;
export type HeaderEvent = z.infer<typeof HeaderEventSchema>;
export type DashboardHeaderResponse = z.infer<typeof DashboardHeaderResponseSchema>;
