import { SegmentDefinitionSchema } from '@herald/contracts';
import type {
  SegmentDefinition,
  SegmentEvent,
  SegmentMatch,
  SegmentRule,
  SegmentTextOp,
} from '@herald/contracts';

export type RuleKind = SegmentRule['kind'];
export type TagMatch = Extract<SegmentRule, { kind: 'tags' }>['match'];

/** The rule kinds in the order the builder offers them, by their names there. */
export const RULE_KIND_LABELS: Record<RuleKind, string> = {
  tags: 'Tags',
  text: 'Column text',
  number: 'Column number',
  date: 'Column date',
  market: 'Country or region',
  opted_in: 'Opted in',
  engagement: 'Broadcast activity',
};

/**
 * A rule as the builder holds it: every kind's inputs at once, as typed (numbers and dates as text), so
 * switching the kind back and forth loses nothing and a half-typed number is not thrown away.
 */
export type RuleDraft = {
  key: string;
  kind: RuleKind;
  tagMatch: TagMatch;
  tagIds: number[];
  column: string;
  op: SegmentTextOp;
  value: string;
  min: string;
  max: string;
  from: string;
  to: string;
  markets: string[];
  did: boolean;
  event: SegmentEvent;
  withinDays: string;
  broadcastId: string;
};

export type GroupDraft = { key: string; match: SegmentMatch; rules: RuleDraft[] };
export type SegmentDraft = { name: string; match: SegmentMatch; groups: GroupDraft[] };

// Keys only tell React's list items apart; they never leave the builder.
let lastKey = 0;
const newKey = () => `k${++lastKey}`;

export function emptyRule(kind: RuleKind = 'tags'): RuleDraft {
  return {
    key: newKey(),
    kind,
    tagMatch: 'any',
    tagIds: [],
    column: '',
    op: 'equals',
    value: '',
    min: '',
    max: '',
    from: '',
    to: '',
    markets: [],
    did: true,
    event: 'read',
    withinDays: '',
    broadcastId: '',
  };
}

export function emptyGroup(): GroupDraft {
  return { key: newKey(), match: 'all', rules: [emptyRule()] };
}

export function emptyDraft(): SegmentDraft {
  return { name: '', match: 'all', groups: [emptyGroup()] };
}

const text = (value: number | undefined) => (value === undefined ? '' : String(value));

/** A saved rule as the builder's inputs. */
export function ruleDraft(rule: SegmentRule): RuleDraft {
  const draft = emptyRule(rule.kind);
  switch (rule.kind) {
    case 'tags':
      return { ...draft, tagMatch: rule.match, tagIds: [...rule.tag_ids] };
    case 'text':
      return { ...draft, column: rule.column, op: rule.op, value: rule.value ?? '' };
    case 'number':
      return { ...draft, column: rule.column, min: text(rule.min), max: text(rule.max) };
    case 'date':
      return { ...draft, column: rule.column, from: rule.from ?? '', to: rule.to ?? '' };
    case 'market':
      return { ...draft, markets: [...rule.markets] };
    case 'opted_in':
      return { ...draft, from: rule.from ?? '', to: rule.to ?? '' };
    case 'engagement':
      return {
        ...draft,
        did: rule.did,
        event: rule.event,
        withinDays: text(rule.within_days),
        broadcastId: text(rule.broadcast_id),
      };
  }
}

export function segmentDraft(name: string, definition: SegmentDefinition): SegmentDraft {
  return {
    name,
    match: definition.match,
    groups: definition.groups.map((group) => ({
      key: newKey(),
      match: group.match,
      rules: group.rules.map(ruleDraft),
    })),
  };
}

// An empty input is no bound; anything else is a number, NaN included, which the schema refuses by name.
const numberOf = (value: string) => (value.trim() === '' ? undefined : Number(value));
const dateOf = (value: string) => value || undefined;

/** The rule the inputs say, for the schema to judge: not yet a valid SegmentRule. */
export function ruleInput(rule: RuleDraft): Record<string, unknown> {
  switch (rule.kind) {
    case 'tags':
      return { kind: 'tags', match: rule.tagMatch, tag_ids: rule.tagIds };
    case 'text':
      return {
        kind: 'text',
        column: rule.column,
        op: rule.op,
        // Empty and not empty test no value, so none is sent.
        ...(rule.op === 'equals' || rule.op === 'contains' ? { value: rule.value.trim() } : {}),
      };
    case 'number':
      return { kind: 'number', column: rule.column, min: numberOf(rule.min), max: numberOf(rule.max) };
    case 'date':
      return { kind: 'date', column: rule.column, from: dateOf(rule.from), to: dateOf(rule.to) };
    case 'market':
      return { kind: 'market', markets: rule.markets };
    case 'opted_in':
      return { kind: 'opted_in', from: dateOf(rule.from), to: dateOf(rule.to) };
    case 'engagement':
      return {
        kind: 'engagement',
        event: rule.event,
        did: rule.did,
        within_days: numberOf(rule.withinDays),
        broadcast_id: numberOf(rule.broadcastId),
      };
  }
}

export function definitionInput(draft: SegmentDraft) {
  return {
    match: draft.match,
    groups: draft.groups.map((group) => ({ match: group.match, rules: group.rules.map(ruleInput) })),
  };
}

/** The definition the builder holds when it is complete and valid; null while it is not. */
export function validDefinition(draft: SegmentDraft): SegmentDefinition | null {
  const parsed = SegmentDefinitionSchema.safeParse(definitionInput(draft));
  return parsed.success ? parsed.data : null;
}

/** The fields of each rule kind, as the server names them in a rule's errors. */
export const RULE_FIELDS: Record<RuleKind, readonly string[]> = {
  tags: ['match', 'tag_ids'],
  text: ['column', 'op', 'value'],
  number: ['column', 'min', 'max'],
  date: ['column', 'from', 'to'],
  market: ['markets'],
  opted_in: ['from', 'to'],
  engagement: ['event', 'did', 'within_days', 'broadcast_id'],
};
