import { describe, expect, it } from 'vitest';
import { SegmentDefinitionSchema, segmentDescription, segmentRuleText, type SegmentRule } from './segments';

const names = { tags: new Map([[1, 'VIP']]), broadcasts: new Map([[7, 'Spring sale']]) };
const say = (rule: SegmentRule) => segmentRuleText(rule, names);

describe('a segment in words', () => {
  it('says each kind of rule as the report shows it', () => {
    expect(say({ kind: 'tags', match: 'none', tag_ids: [1, 2] })).toBe('Tags: none of “VIP”, “#2”');
    expect(say({ kind: 'text', column: 'plan', op: 'equals', value: 'gold' })).toBe('plan equals “gold”');
    expect(say({ kind: 'text', column: 'email', op: 'empty' })).toBe('email is empty');
    expect(say({ kind: 'number', column: 'age', min: 18 })).toBe('age at least 18');
    expect(say({ kind: 'date', column: 'renewal', from: '2026-01-01', to: '2026-03-31' })).toBe(
      'renewal from 2026-01-01 to 2026-03-31',
    );
    expect(say({ kind: 'market', markets: ['Germany', 'India'] })).toBe('Country or region: Germany, India');
    expect(say({ kind: 'opted_in', to: '2026-06-30' })).toBe('Opted in until 2026-06-30');
    expect(say({ kind: 'engagement', event: 'read', did: true, within_days: 7 })).toBe(
      'Read a broadcast in the last 7 days',
    );
    expect(say({ kind: 'engagement', event: 'replied', did: false, broadcast_id: 7 })).toBe(
      'Did not reply to a broadcast of “Spring sale”',
    );
    expect(say({ kind: 'engagement', event: 'engaged', did: false })).toBe(
      'Never engaged (read, replied or clicked)',
    );
  });

  it('joins groups by the segment’s match, a line each', () => {
    expect(
      segmentDescription(
        {
          match: 'any',
          groups: [
            { match: 'all', rules: [{ kind: 'tags', match: 'any', tag_ids: [1] }] },
            {
              match: 'any',
              rules: [
                { kind: 'market', markets: ['Germany'] },
                { kind: 'engagement', event: 'clicked', did: true, within_days: 1 },
              ],
            },
          ],
        },
        names,
      ),
    ).toEqual([
      'Tags: any of “VIP”',
      'OR Any of: Country or region: Germany; Clicked a broadcast’s link in the last 1 day',
    ]);
  });
});

describe('SegmentDefinitionSchema', () => {
  const one = (rule: object) => ({ match: 'all', groups: [{ match: 'all', rules: [rule] }] });
  it.each([
    [{ kind: 'text', column: 'plan', op: 'equals' }, 'groups.0.rules.0.value'],
    [{ kind: 'number', column: 'age' }, 'groups.0.rules.0.min'],
    [{ kind: 'date', column: 'renewal', from: '2026-02-30' }, 'groups.0.rules.0.from'],
    [{ kind: 'opted_in', from: '2026-05-01', to: '2026-04-01' }, 'groups.0.rules.0.to'],
    [{ kind: 'engagement', event: 'read', did: true, within_days: 0 }, 'groups.0.rules.0.within_days'],
    [{ kind: 'tags', match: 'any', tag_ids: [] }, 'groups.0.rules.0.tag_ids'],
  ])('refuses %j naming %s', (rule, path) => {
    const result = SegmentDefinitionSchema.safeParse(one(rule));
    expect(result.error?.issues[0]?.path.join('.')).toBe(path);
  });

  it('refuses a segment without rules', () => {
    expect(SegmentDefinitionSchema.safeParse({ match: 'all', groups: [] }).error?.issues[0]?.path).toEqual([
      'groups',
    ]);
  });
});
