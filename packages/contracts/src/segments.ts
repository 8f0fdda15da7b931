import { z } from 'zod';

/**
 * Segments: audiences by what contacts are and did. A segment is rules in groups: every group's rules are
 * combined by the group's `match` (all = AND, any = OR), and the groups by the segment's `match`. A broadcast
 * to a segment freezes its members when it starts; the Customers list can be filtered by one.
 */
export const SEGMENT_LIMITS = { groups: 10, rules: 20, tags: 50, markets: 50, name: 100, days: 365 } as const;

export const SEGMENT_MATCHES = ['all', 'any'] as const;
export type SegmentMatch = (typeof SEGMENT_MATCHES)[number];

/** What a person did with the account's broadcasts; `engaged` is read, replied or clicked. */
export const SEGMENT_EVENTS = ['received', 'delivered', 'read', 'replied', 'clicked', 'engaged'] as const;
export type SegmentEvent = (typeof SEGMENT_EVENTS)[number];

/** The verbs of SEGMENT_EVENTS, as the builder and the report say them. */
export const SEGMENT_EVENT_LABELS: Record<SegmentEvent, string> = {
  received: 'received a broadcast',
  delivered: 'had a broadcast delivered',
  read: 'read a broadcast',
  replied: 'replied to a broadcast',
  clicked: 'clicked a broadcast’s link',
  engaged: 'engaged (read, replied or clicked)',
};

export const SEGMENT_TEXT_OPS = ['equals', 'contains', 'empty', 'not_empty'] as const;
export type SegmentTextOp = (typeof SEGMENT_TEXT_OPS)[number];

const IsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date, YYYY-MM-DD')
  .refine(
    (value) =>
      !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
      new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
    'must be a real date',
  );

/** A contact column: one of CONTACT_BASE_COLUMNS or a custom column's name (an import's extra column). */
const ColumnName = z.string().trim().min(1, 'Choose a column').max(64, 'must be at most 64 characters');

const TagsRule = z.object({
  kind: z.literal('tags'),
  /** any: carries at least one; all: carries every one; none: carries none of them. */
  match: z.enum(['any', 'all', 'none'], { message: 'must be any, all or none' }),
  tag_ids: z
    .array(z.number().int().positive())
    .min(1, 'Select at least one tag')
    .max(SEGMENT_LIMITS.tags, `Select at most ${SEGMENT_LIMITS.tags} tags`),
});

/** Text tests, without case: equals, contains, empty (no value or only spaces) and not empty. */
const TextRule = z
  .object({
    kind: z.literal('text'),
    column: ColumnName,
    op: z.enum(SEGMENT_TEXT_OPS, { message: 'must be equals, contains, empty or not_empty' }),
    value: z.string().max(200, 'must be at most 200 characters').optional(),
  })
  .superRefine((rule, ctx) => {
    if ((rule.op === 'equals' || rule.op === 'contains') && !rule.value?.trim())
      ctx.addIssue({ code: 'custom', message: 'Enter a value', path: ['value'] });
  });

/** A number range, ends included; a value that is not a number is outside every range. */
const NumberRule = z
  .object({
    kind: z.literal('number'),
    column: ColumnName,
    min: z.number({ message: 'must be a number' }).finite().optional(),
    max: z.number({ message: 'must be a number' }).finite().optional(),
  })
  .superRefine((rule, ctx) => {
    if (rule.min === undefined && rule.max === undefined)
      ctx.addIssue({ code: 'custom', message: 'Enter a minimum or a maximum', path: ['min'] });
    if (rule.min !== undefined && rule.max !== undefined && rule.min > rule.max)
      ctx.addIssue({ code: 'custom', message: 'The minimum is above the maximum', path: ['max'] });
  });

function dateRange<T extends { from?: string; to?: string }>(rule: T, ctx: z.RefinementCtx) {
  if (rule.from === undefined && rule.to === undefined)
    ctx.addIssue({ code: 'custom', message: 'Enter a start or an end date', path: ['from'] });
  if (rule.from !== undefined && rule.to !== undefined && rule.from > rule.to)
    ctx.addIssue({ code: 'custom', message: 'The start is after the end', path: ['to'] });
}

/** A date range over a column holding YYYY-MM-DD dates (a custom column), ends included. */
const DateRule = z
  .object({ kind: z.literal('date'), column: ColumnName, from: IsoDate.optional(), to: IsoDate.optional() })
  .superRefine(dateRange);

/** Meta's pricing markets (a country, or a region such as "Rest of Western Europe"), by the contact's number. */
const MarketRule = z.object({
  kind: z.literal('market'),
  markets: z
    .array(z.string().min(1).max(64))
    .min(1, 'Select at least one country or region')
    .max(SEGMENT_LIMITS.markets),
});

/** When the contact was added to Herald, which is when their opt-in was recorded (UTC days, ends included). */
const OptInRule = z
  .object({ kind: z.literal('opted_in'), from: IsoDate.optional(), to: IsoDate.optional() })
  .superRefine(dateRange);

/**
 * What the contact did with the account's broadcasts: `did` true, at least once; false, never. Narrowed to the
 * last `within_days` days (by when it happened) and/or to one broadcast; neither: ever.
 */
const EngagementRule = z.object({
  kind: z.literal('engagement'),
  event: z.enum(SEGMENT_EVENTS, { message: `must be one of ${SEGMENT_EVENTS.join(', ')}` }),
  did: z.boolean({ message: 'must be true or false' }),
  within_days: z
    .number()
    .int('must be a whole number of days')
    .min(1, 'must be at least 1 day')
    .max(SEGMENT_LIMITS.days, `must be at most ${SEGMENT_LIMITS.days} days`)
    .optional(),
  broadcast_id: z.number().int().positive().optional(),
});

export const SegmentRuleSchema = z
  .discriminatedUnion('kind', [
    TagsRule,
    TextRule,
    NumberRule,
    DateRule,
    MarketRule,
    OptInRule,
    EngagementRule,
  ])
  .meta({ id: 'SegmentRule' });
export type SegmentRule = z.infer<typeof SegmentRuleSchema>;

export const SegmentGroupSchema = z.object({
  match: z.enum(SEGMENT_MATCHES, { message: 'must be all or any' }),
  rules: z
    .array(SegmentRuleSchema)
    .min(1, 'Add at least one rule')
    .max(SEGMENT_LIMITS.rules, `A group has at most ${SEGMENT_LIMITS.rules} rules`),
});

export const SegmentDefinitionSchema = z
  .object({
    match: z.enum(SEGMENT_MATCHES, { message: 'must be all or any' }),
    groups: z
      .array(SegmentGroupSchema)
      .min(1, 'Add at least one rule')
      .max(SEGMENT_LIMITS.groups, `A segment has at most ${SEGMENT_LIMITS.groups} groups`),
  })
  .meta({ id: 'SegmentDefinition' });
export type SegmentDefinition = z.infer<typeof SegmentDefinitionSchema>;

/** POST /segments/ and PUT /segments/{id}/. */
export const SegmentRequestSchema = z.object({
  name: z
    .string({ message: 'Please enter a segment name' })
    .trim()
    .min(1, 'Please enter a segment name')
    .max(SEGMENT_LIMITS.name, `must be at most ${SEGMENT_LIMITS.name} characters`),
  definition: SegmentDefinitionSchema,
});
export type SegmentRequest = z.infer<typeof SegmentRequestSchema>;

/** POST /segments/count/: the live count while the rules change. */
export const SegmentCountRequestSchema = z.object({ definition: SegmentDefinitionSchema });
export const SegmentCountResponseSchema = z.object({
  /** Contacts matching the rules, opted-out ones included. */
  matching: z.number().int(),
  /** Of them, those a broadcast would reach: not opted out. */
  reachable: z.number().int(),
});
export type SegmentCountResponse = z.infer<typeof SegmentCountResponseSchema>;

export const SegmentSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    definition: SegmentDefinitionSchema,
    /** The rules in words (SegmentNames resolved as of now). */
    description: z.array(z.string()),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Segment' });
export type Segment = z.infer<typeof SegmentSchema>;
export const SegmentListResponseSchema = z.object({ results: z.array(SegmentSchema) });

/** GET /segments/fields/: what rules can name: the contact columns (base and custom) and Meta's markets. */
export const SegmentFieldsResponseSchema = z.object({
  columns: z.array(z.object({ name: z.string(), custom: z.boolean() })),
  markets: z.array(z.string()),
});
export type SegmentFieldsResponse = z.infer<typeof SegmentFieldsResponseSchema>;

/** Names the description needs: tags' and broadcasts' by id (a missing one is said as "#id"). */
export interface SegmentNames {
  tags: ReadonlyMap<number, string>;
  broadcasts: ReadonlyMap<number, string>;
}

const quoteList = (values: readonly string[]) => values.map((value) => `“${value}”`).join(', ');
const range = (from: string | number | undefined, to: string | number | undefined) =>
  from !== undefined && to !== undefined
    ? `from ${from} to ${to}`
    : from !== undefined
      ? `${typeof from === 'number' ? 'at least' : 'from'} ${from}`
      : `${typeof to === 'number' ? 'at most' : 'until'} ${to}`;

/** One rule in words, e.g. "Tags: any of “VIP”, “Gold”" or "Read a broadcast in the last 30 days". */
export function segmentRuleText(rule: SegmentRule, names: SegmentNames): string {
  switch (rule.kind) {
    case 'tags': {
      const tags = rule.tag_ids.map((id) => names.tags.get(id) ?? `#${id}`);
      return `Tags: ${rule.match} of ${quoteList(tags)}`;
    }
    case 'text':
      return rule.op === 'empty'
        ? `${rule.column} is empty`
        : rule.op === 'not_empty'
          ? `${rule.column} is not empty`
          : `${rule.column} ${rule.op} “${rule.value ?? ''}”`;
    case 'number':
      return `${rule.column} ${range(rule.min, rule.max)}`;
    case 'date':
      return `${rule.column} ${range(rule.from, rule.to)}`;
    case 'market':
      return `Country or region: ${rule.markets.join(', ')}`;
    case 'opted_in':
      return `Opted in ${range(rule.from, rule.to)}`;
    case 'engagement': {
      const verb = SEGMENT_EVENT_LABELS[rule.event];
      const scope = [
        rule.broadcast_id !== undefined
          ? `of “${names.broadcasts.get(rule.broadcast_id) ?? `#${rule.broadcast_id}`}”`
          : null,
        rule.within_days !== undefined
          ? `in the last ${rule.within_days} day${rule.within_days === 1 ? '' : 's'}`
          : null,
      ]
        .filter(Boolean)
        .join(' ');
      const text = `${verb}${scope ? ` ${scope}` : ''}`;
      return rule.did
        ? text.charAt(0).toUpperCase() + text.slice(1)
        : rule.within_days === undefined && rule.broadcast_id === undefined
          ? `Never ${text}`
          : `Did not ${text.replace(/^(received|had|read|replied|clicked|engaged)/, (verbWord) => DID_NOT[verbWord] ?? verbWord)}`;
    }
  }
}

const DID_NOT: Record<string, string> = {
  received: 'receive',
  had: 'have',
  read: 'read',
  replied: 'reply',
  clicked: 'click',
  engaged: 'engage',
};

/**
 * The segment in words, a line per group: "All of: …; …" (or "Any of"), the groups joined by the segment's
 * match ("AND" / "OR") at the start of each following line.
 */
export function segmentDescription(definition: SegmentDefinition, names: SegmentNames): string[] {
  return definition.groups.map((group, index) => {
    const rules = group.rules.map((rule) => segmentRuleText(rule, names));
    const body =
      rules.length === 1 ? rules[0]! : `${group.match === 'all' ? 'All' : 'Any'} of: ${rules.join('; ')}`;
    return index === 0 ? body : `${definition.match === 'all' ? 'AND' : 'OR'} ${body}`;
  });
}
