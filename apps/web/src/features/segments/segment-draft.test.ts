import { describe, expect, it } from 'vitest';
import type { SegmentDefinition } from '@herald/contracts';
import { emptyDraft, segmentDraft, validDefinition } from './segment-draft';
import { placeErrors } from './segment-errors';

const definition: SegmentDefinition = {
  match: 'any',
  groups: [
    {
      match: 'any',
      rules: [
        { kind: 'tags', match: 'none', tag_ids: [3, 4] },
        { kind: 'text', column: 'city', op: 'contains', value: 'burg' },
        { kind: 'text', column: 'email', op: 'not_empty' },
        { kind: 'number', column: 'recipient_age', min: 18 },
      ],
    },
    {
      match: 'all',
      rules: [
        { kind: 'date', column: 'renewal', from: '2025-01-01', to: '2025-12-31' },
        { kind: 'market', markets: ['Germany'] },
        { kind: 'opted_in', to: '2025-06-30' },
        { kind: 'engagement', event: 'engaged', did: true },
        { kind: 'engagement', event: 'clicked', did: false, within_days: 7, broadcast_id: 9 },
      ],
    },
  ],
};

describe('the builder’s draft', () => {
  it('holds every kind of saved rule and gives the same definition back', () => {
    expect(validDefinition(segmentDraft('All kinds', definition))).toEqual(definition);
  });

  it('is no definition while a rule is incomplete or a number is not one', () => {
    expect(validDefinition(emptyDraft())).toBeNull();
    const draft = segmentDraft('Ages', definition);
    draft.groups[0]!.rules[3]!.min = '1e';
    expect(validDefinition(draft)).toBeNull();
  });
});

describe('where a message shows', () => {
  const draft = segmentDraft('All kinds', definition);
  it('places each field by its path, with or without the body it came in', () => {
    expect(
      placeErrors(
        [
          { field: 'name', message: 'Taken' },
          { field: 'body.definition.groups.0.rules.1.value', message: 'Too long' },
          { field: 'definition.groups.0.rules.0.tag_ids.1', message: 'Unknown tag' },
          { field: 'definition.groups.1.rules.4.broadcast_id', message: 'No such broadcast' },
          { field: 'definition.groups.1.rules', message: 'Too many rules' },
          { field: 'definition.groups', message: 'Too many groups' },
          { field: 'segment', message: 'Something else' },
        ],
        draft,
      ),
    ).toEqual({
      name: 'Taken',
      'groups.0.rules.1.value': 'Too long',
      'groups.0.rules.0.tag_ids': 'Unknown tag',
      'groups.1.rules.4.broadcast_id': 'No such broadcast',
      'groups.1': 'Too many rules',
      definition: 'Too many groups',
      form: 'Something else',
    });
  });

  it('puts a field the rule does not show, or a rule that is gone, on the rule or its group', () => {
    expect(
      placeErrors(
        [
          { field: 'definition.groups.0.rules.3.value', message: 'Not for numbers' },
          { field: 'definition.groups.0.rules.9.value', message: 'Gone' },
        ],
        draft,
      ),
    ).toEqual({ 'groups.0.rules.3': 'Not for numbers', 'groups.0': 'Gone' });
  });
});
