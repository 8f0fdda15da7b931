import type { SegmentDefinition, SegmentEvent, SegmentRule } from '@herald/contracts';
import { marketOfNumber } from '../apps/server/src/features/pricing/index';

/**
 * A plain recount of a segment over contacts held in memory: the rules' meanings written out once more, in
 * JavaScript and one contact at a time, to hold the SQL (segment-sql.ts) to them. Markets are marketOfNumber's,
 * the pricing feature's own reading of a number.
 */
export interface RecountContact {
  id: number;
  name: string;
  whatsapp_number: string;
  age: number | null;
  email: string | null;
  attributes: Record<string, string>;
  created_at: Date;
  opted_out: boolean;
  tag_ids: number[];
  messages: RecountMessage[];
}

export interface RecountMessage {
  broadcast_id: number;
  accepted_at: Date | null;
  delivered_at: Date | null;
  read_at: Date | null;
  replied_at: Date | null;
  clicked_at: Date | null;
}

const DAY = 86_400_000;

function eventTime(message: RecountMessage, event: SegmentEvent): Date | null {
  const latest = (...times: Array<Date | null>) =>
    times.reduce<Date | null>((a, b) => (b && (!a || b > a) ? b : a), null);
  switch (event) {
    case 'received':
      return message.accepted_at;
    case 'delivered':
      return message.delivered_at ?? message.read_at;
    case 'read':
      return message.read_at;
    case 'replied':
      return message.replied_at;
    case 'clicked':
      return message.clicked_at;
    case 'engaged':
      return latest(message.read_at, message.replied_at, message.clicked_at);
  }
}

function columnText(contact: RecountContact, column: string): string | null {
  if (column === 'name') return contact.name;
  if (column === 'whatsapp_number') return contact.whatsapp_number;
  if (column === 'email') return contact.email;
  if (column === 'age') return contact.age === null ? null : String(contact.age);
  return contact.attributes[column] ?? null;
}

function inRange<T extends string | number>(value: T | null, low?: T, high?: T): boolean {
  if (value === null) return false;
  return (low === undefined || value >= low) && (high === undefined || value <= high);
}

export function ruleMatches(contact: RecountContact, rule: SegmentRule, now: Date): boolean {
  switch (rule.kind) {
    case 'tags': {
      const carried = rule.tag_ids.filter((id) => contact.tag_ids.includes(id)).length;
      if (rule.match === 'any') return carried > 0;
      if (rule.match === 'none') return carried === 0;
      return carried === new Set(rule.tag_ids).size;
    }
    case 'text': {
      const value = columnText(contact, rule.column);
      const trimmed = value?.trim() ?? '';
      if (rule.op === 'empty') return trimmed === '';
      if (rule.op === 'not_empty') return trimmed !== '';
      const wanted = (rule.value ?? '').trim().toLowerCase();
      if (value === null) return false;
      return rule.op === 'equals' ? trimmed.toLowerCase() === wanted : value.toLowerCase().includes(wanted);
    }
    case 'number': {
      const text = columnText(contact, rule.column);
      const value = text !== null && /^\s*-?[0-9]+(\.[0-9]+)?\s*$/.test(text) ? Number(text.trim()) : null;
      return inRange(value, rule.min, rule.max);
    }
    case 'date': {
      const text = columnText(contact, rule.column);
      const value = text !== null && /^\s*[0-9]{4}-[0-9]{2}-[0-9]{2}\s*$/.test(text) ? text.trim() : null;
      return inRange(value, rule.from, rule.to);
    }
    case 'market':
      return rule.markets.includes(marketOfNumber(contact.whatsapp_number));
    case 'opted_in': {
      const day = contact.created_at.toISOString().slice(0, 10);
      return inRange(day, rule.from, rule.to);
    }
    case 'engagement': {
      const happened = contact.messages.some((message) => {
        const time = eventTime(message, rule.event);
        if (!time) return false;
        if (rule.within_days !== undefined && time.getTime() <= now.getTime() - rule.within_days * DAY)
          return false;
        return rule.broadcast_id === undefined || message.broadcast_id === rule.broadcast_id;
      });
      return happened === rule.did;
    }
  }
}

/** The contacts the segment holds, by the rules above. */
export function recountSegment(
  contacts: readonly RecountContact[],
  definition: SegmentDefinition,
  now: Date,
): RecountContact[] {
  const groupMatches = (contact: RecountContact, group: SegmentDefinition['groups'][number]) =>
    group.match === 'all'
      ? group.rules.every((rule) => ruleMatches(contact, rule, now))
      : group.rules.some((rule) => ruleMatches(contact, rule, now));
  return contacts.filter((contact) =>
    definition.match === 'all'
      ? definition.groups.every((group) => groupMatches(contact, group))
      : definition.groups.some((group) => groupMatches(contact, group)),
  );
}
