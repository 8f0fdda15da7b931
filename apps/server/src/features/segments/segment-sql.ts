import pg from 'pg';
import {
  CONTACT_BASE_COLUMNS,
  type SegmentDefinition,
  type SegmentEvent,
  type SegmentRule,
} from '@herald/contracts';
import { MARKET_OF_PREFIX, OTHER_MARKET } from '../pricing/index';

/**
 * A segment as one SQL condition over a contacts row (`alias`), its values written in as literals: the same text
 * then serves every query that reads an audience (count, estimate, freezing at the start, the Customers list)
 * whatever parameters those already number, and the planner sees the real values. Every value is escaped
 * (pg.escapeLiteral) or checked to be a number or a date by the contract before it gets here.
 * The rules' meanings (a plain recount in the tests holds SQL to them):
 * - text: without case, spaces at either end ignored; empty = no value or only spaces;
 * - number: the value read as a decimal number, ends included; a value that is not one is in no range;
 * - date: a YYYY-MM-DD value compared as text (ISO dates sort as text), ends included;
 * - market: by the number's prefix (MARKET_OF_PREFIX), "Other" for a number under none;
 * - opted_in: created_at, by UTC day, ends included;
 * - engagement: at least one of the account's broadcast messages to this contact where it happened (in the
 *   last N days by when it happened; of one broadcast), or none for `did: false`. Messages deleted since (the
 *   retention job, a deleted broadcast) still count: what happened is kept per contact (decision 101).
 */
export function segmentWhereSql(definition: SegmentDefinition, alias: string): string {
  const groups = definition.groups.map((group) => groupSql(group, alias));
  return `(${groups.join(definition.match === 'all' ? ' and ' : ' or ')})`;
}

/** A group's rules joined by its match; its rules on the contact's kept activity read that row once. */
function groupSql(group: SegmentDefinition['groups'][number], alias: string): string {
  const activity = group.rules.filter(readsActivity);
  const parts = group.rules.filter((rule) => !readsActivity(rule)).map((rule) => ruleSql(rule, alias));
  if (activity.length) parts.push(activitySql(activity, group.match, alias));
  return `(${parts.join(group.match === 'all' ? ' and ' : ' or ')})`;
}

const literal = (text: string) => pg.escapeLiteral(text);
const numberLiteral = (value: number) => {
  if (!Number.isFinite(value)) throw new Error('A segment number must be finite');
  return String(value);
};
const textArray = (values: readonly string[]) => `array[${values.map(literal).join(', ')}]::text[]`;

/** The column's value as text: a base column's own, a custom one's from `attributes`. */
function columnText(column: string, alias: string): string {
  if (column === 'age') return `${alias}.age::text`;
  return (CONTACT_BASE_COLUMNS as readonly string[]).includes(column)
    ? `${alias}.${column}`
    : `(${alias}.attributes ->> ${literal(column)})`;
}

/** A decimal number, optionally signed, with spaces around it: what a number rule reads as a number. */
export const NUMBER_PATTERN = '^\\s*-?[0-9]+(\\.[0-9]+)?\\s*$';
/** A date as the date rule reads it. */
export const DATE_PATTERN = '^\\s*[0-9]{4}-[0-9]{2}-[0-9]{2}\\s*$';

function ruleSql(rule: SegmentRule, alias: string): string {
  switch (rule.kind) {
    case 'tags':
      return tagsSql(rule.match, rule.tag_ids, alias);
    case 'text': {
      const value = columnText(rule.column, alias);
      if (rule.op === 'empty') return `coalesce(btrim(${value}), '') = ''`;
      if (rule.op === 'not_empty') return `coalesce(btrim(${value}), '') <> ''`;
      const wanted = literal((rule.value ?? '').trim().toLowerCase());
      return rule.op === 'equals'
        ? `coalesce(lower(btrim(${value})) = ${wanted}, false)`
        : `coalesce(strpos(lower(${value}), ${wanted}) > 0, false)`;
    }
    case 'number': {
      const value =
        rule.column === 'age'
          ? `${alias}.age::numeric`
          : `(case when ${columnText(rule.column, alias)} ~ '${NUMBER_PATTERN}' then btrim(${columnText(rule.column, alias)})::numeric end)`;
      return bounded(
        value,
        rule.min !== undefined ? numberLiteral(rule.min) : undefined,
        rule.max !== undefined ? numberLiteral(rule.max) : undefined,
      );
    }
    case 'date': {
      const text = columnText(rule.column, alias);
      const value = `(case when ${text} ~ '${DATE_PATTERN}' then btrim(${text}) end)`;
      return bounded(value, rule.from && literal(rule.from), rule.to && literal(rule.to));
    }
    case 'market':
      return marketSql(rule.markets, alias);
    case 'opted_in': {
      const parts = [];
      if (rule.from) parts.push(`${alias}.created_at >= ${literal(`${rule.from} 00:00:00+00`)}::timestamptz`);
      if (rule.to)
        parts.push(`${alias}.created_at < ${literal(`${dayAfter(rule.to)} 00:00:00+00`)}::timestamptz`);
      return `(${parts.join(' and ')})`;
    }
    case 'engagement':
      // Without a broadcast, the group reads the contact's activity row for all such rules (groupSql).
      return rule.broadcast_id === undefined
        ? activitySql([rule], 'all', alias)
        : broadcastEngagementSql(rule, rule.broadcast_id, alias);
  }
}

function bounded(value: string, low: string | undefined, high: string | undefined): string {
  const parts = [];
  if (low !== undefined) parts.push(`${value} >= ${low}`);
  if (high !== undefined) parts.push(`${value} <= ${high}`);
  return `coalesce(${parts.join(' and ')}, false)`;
}

/** The UTC day after an ISO date, for an end that includes its whole day. */
export function dayAfter(date: string): string {
  const next = new Date(`${date}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}

function tagsSql(match: 'any' | 'all' | 'none', tagIds: number[], alias: string): string {
  const ids = [...new Set(tagIds)];
  const list = `array[${ids.map(numberLiteral).join(', ')}]::bigint[]`;
  const tagged = `from contact_tags ct
     where ct.waba_account_id = ${alias}.waba_account_id and ct.contact_id = ${alias}.id and ct.tag_id = any(${list})`;
  if (match === 'all') return `(select count(*) ${tagged}) = ${ids.length}`;
  return `${match === 'none' ? 'not ' : ''}exists (select 1 ${tagged})`;
}

/**
 * Numbers of the chosen markets by prefix; with "Other" chosen, numbers under no prefix of the other markets
 * instead (so numbers under no prefix at all are in it too).
 */
function marketSql(markets: readonly string[], alias: string): string {
  const chosen = new Set(markets);
  const other = chosen.has(OTHER_MARKET);
  const prefixes = [...MARKET_OF_PREFIX]
    .filter(([, market]) => chosen.has(market) !== other)
    .map(([prefix]) => prefix);
  const byLength = new Map<number, string[]>();
  for (const prefix of prefixes)
    byLength.set(prefix.length, [...(byLength.get(prefix.length) ?? []), prefix]);
  const tests = [...byLength].map(
    ([length, list]) => `left(${alias}.whatsapp_number, ${length}) = any(${textArray(list)})`,
  );
  const any = tests.length ? `(${tests.join(' or ')})` : 'false';
  return other ? `not ${any}` : any;
}

/** When each event happened on a message row (null: it did not). */
export const EVENT_TIME: Record<SegmentEvent, string> = {
  received: 'm.accepted_at',
  delivered: 'coalesce(m.delivered_at, m.read_at)',
  read: 'm.read_at',
  replied: 'm.replied_at',
  clicked: 'm.clicked_at',
  // greatest() skips nulls: the latest of the three that happened.
  engaged: 'greatest(m.read_at, m.replied_at, m.clicked_at)',
};

/** The latest time of each event over a contact's messages, as contact_activity keeps it (migration 051). */
const ACTIVITY_TIME: Record<SegmentEvent, string> = {
  received: 'a.received_at',
  delivered: 'a.delivered_at',
  read: 'a.read_at',
  replied: 'a.replied_at',
  clicked: 'a.clicked_at',
  engaged: 'a.engaged_at',
};

type EngagementRule = Extract<SegmentRule, { kind: 'engagement' }>;

/** An activity rule not about one broadcast: it reads the contact's kept activity (decision 101). */
const readsActivity = (rule: SegmentRule): rule is EngagementRule =>
  rule.kind === 'engagement' && rule.broadcast_id === undefined;

/** The rule's event happened (in the last N days) by a contact_activity row `a`: never null. */
function activityCondition(rule: EngagementRule): string {
  const time = ACTIVITY_TIME[rule.event];
  return rule.within_days === undefined
    ? `${time} is not null`
    : `(${time} is not null and ${time} > now() - make_interval(days => ${numberLiteral(rule.within_days)}))`;
}

/**
 * A group's activity rules over the contact's one activity row (none when nothing ever reached it), in one
 * search of the table where a search per rule would hash it once per rule:
 * - all of them: a row where every "did" holds and no "did not" does; with only "did not" rules, no row where
 *   any holds;
 * - any of them: a row where a "did" holds, or no row where every "did not" holds.
 */
function activitySql(rules: EngagementRule[], match: 'all' | 'any', alias: string): string {
  const row = (condition: string) =>
    `exists (select 1 from contact_activity a where a.waba_account_id = ${alias}.waba_account_id and a.contact_id = ${alias}.id and ${condition})`;
  const did = rules.filter((rule) => rule.did).map(activityCondition);
  const didNot = rules.filter((rule) => !rule.did).map(activityCondition);
  if (match === 'all') {
    if (!did.length) return `not ${row(`(${didNot.join(' or ')})`)}`;
    return row([...did, ...(didNot.length ? [`not (${didNot.join(' or ')})`] : [])].join(' and '));
  }
  const parts = [];
  if (did.length) parts.push(row(`(${did.join(' or ')})`));
  if (didNot.length) parts.push(`not ${row(`(${didNot.join(' and ')})`)}`);
  return `(${parts.join(' or ')})`;
}

/** A rule about one broadcast: that broadcast's message row to the contact, where the event happened. */
function broadcastEngagementSql(rule: EngagementRule, broadcastId: number, alias: string): string {
  const time = EVENT_TIME[rule.event];
  const conditions = [
    `m.waba_account_id = ${alias}.waba_account_id`,
    `m.contact_id = ${alias}.id`,
    `m.broadcast_id = ${numberLiteral(broadcastId)}`,
    `${time} is not null`,
  ];
  if (rule.within_days !== undefined)
    conditions.push(`${time} > now() - make_interval(days => ${numberLiteral(rule.within_days)})`);
  return `${rule.did ? '' : 'not '}exists (select 1 from broadcast_messages m where ${conditions.join(' and ')})`;
}
