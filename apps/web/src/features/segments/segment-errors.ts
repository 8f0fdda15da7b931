import type { FieldEntry } from '../../lib/field-errors';
import { RULE_FIELDS } from './segment-draft';
import type { SegmentDraft } from './segment-draft';

/**
 * The builder's messages by where they show: 'name'; 'definition' (the groups as a whole); 'groups.0' (a
 * group); 'groups.0.rules.1' (a rule); 'groups.0.rules.1.value' (one input of a rule); 'form' (above the
 * buttons, for what has no place of its own).
 */
export type SegmentErrors = Record<string, string>;

export const groupPath = (group: number) => `groups.${group}`;
export const rulePath = (group: number, rule: number) => `groups.${group}.rules.${rule}`;

/** Where a message about `field` shows in the builder as it now is. */
function placeOf(field: string, draft: SegmentDraft): string {
  const path = field.split('.');
  // The server names a body field with or without the 'body' it came in.
  if (path[0] === 'body') path.shift();
  if (path[0] === 'name' && path.length === 1) return 'name';
  if (path[0] !== 'definition') return 'form';
  if (path[1] !== 'groups' || path.length < 3) return 'definition';
  const groupIndex = Number(path[2]);
  const group = draft.groups[groupIndex];
  if (!group) return 'definition';
  if (path[3] !== 'rules' || path.length < 5) return groupPath(groupIndex);
  const ruleIndex = Number(path[4]);
  const rule = group.rules[ruleIndex];
  if (!rule) return groupPath(groupIndex);
  const input = path[5];
  // A field the rule's kind does not show (or an item of a list, 'tag_ids.0') goes to the rule or its list.
  return input && RULE_FIELDS[rule.kind].includes(input)
    ? `${rulePath(groupIndex, ruleIndex)}.${input}`
    : rulePath(groupIndex, ruleIndex);
}

/** Each entry's message placed in the builder; the first message for a place wins. */
export function placeErrors(entries: readonly FieldEntry[], draft: SegmentDraft): SegmentErrors {
  const placed: SegmentErrors = {};
  for (const entry of entries) placed[placeOf(entry.field, draft)] ??= entry.message;
  return placed;
}

/** The messages without those at `prefix` and inside it; a change there answers them. */
export function withoutErrors(errors: SegmentErrors, prefix: string): SegmentErrors {
  return Object.fromEntries(
    Object.entries(errors).filter(([place]) => place !== prefix && !place.startsWith(`${prefix}.`)),
  );
}
