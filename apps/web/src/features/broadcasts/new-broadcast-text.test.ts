import { describe, expect, it } from 'vitest';
import type { BroadcastAudience } from '@herald/contracts';
import { INITIAL_BROADCAST_FORM } from './broadcast-form';
import { formatDateTime } from '../../lib/date-time';
import {
  frequencyCapLine,
  retargetFromText,
  retargetLineText,
  segmentText,
  summaryRecipients,
  summarySendingTime,
} from './new-broadcast-text';

const notRead: BroadcastAudience = {
  kind: 'broadcast_recipients',
  broadcast_id: 3,
  filter: { outcome: 'not_read' },
};
const count = { selected: 10, sampled: 5, audience: 10 };

describe('the retarget lines', () => {
  it('name the earlier broadcast only once its report has answered', () => {
    expect(retargetFromText(notRead, undefined)).toBeNull();
    expect(retargetFromText(null, 'Spring Sale')).toBeNull();
    const from = retargetFromText(notRead, 'Spring Sale');
    expect(from).toBe('from broadcast "Spring Sale" (Not read)');
    expect(retargetLineText(notRead, false, '12', null)).toBe(
      'Loading the earlier broadcast’s recipients...',
    );
    expect(retargetLineText(notRead, false, '12', from)).toBe(
      'Recipients: 12 from broadcast "Spring Sale" (Not read)',
    );
    expect(retargetLineText(notRead, true, '12', null)).toBe(
      'The broadcast these recipients come from was not found in this account.',
    );
    expect(retargetLineText(null, false, '12', null)).toBe('');
  });
});

describe('the Summary', () => {
  it('counts an earlier broadcast’s recipients as the server does, without a dangling space while it loads', () => {
    const retargeted = { ...INITIAL_BROADCAST_FORM, retarget: notRead };
    expect(summaryRecipients(retargeted, count, 'Counting…', null)).toBe('Counting…');
    expect(summaryRecipients(retargeted, count, '12', 'from broadcast "A" (Not read)')).toBe(
      '12 from broadcast "A" (Not read)',
    );
  });

  it('says tag or tags as many are chosen', () => {
    const tagged = { ...INITIAL_BROADCAST_FORM, tagIds: [7], percentage: 50 };
    expect(summaryRecipients(tagged, count, '', null)).toBe('1 tag, 50% (5)');
    expect(summaryRecipients({ ...tagged, tagIds: [7, 8] }, count, '', null)).toBe('2 tags, 50% (5)');
    expect(summaryRecipients({ ...tagged, mode: 'all' }, count, '', null)).toBe('All Contacts, 50% (5)');
  });

  it('names the chosen segment with the percentage, or that none is chosen', () => {
    const segmentMode = { ...INITIAL_BROADCAST_FORM, mode: 'segment' as const, percentage: 40 };
    expect(segmentText(segmentMode, undefined)).toBeNull();
    expect(summaryRecipients(segmentMode, count, '', null, null)).toBe('No segment selected');
    const chosen = { ...segmentMode, segmentId: 3 };
    expect(segmentText(chosen, 'VIP readers')).toBe('Segment: VIP readers (40%)');
    expect(segmentText(chosen, undefined)).toBe('Segment: #3 (40%)');
    expect(summaryRecipients(chosen, count, '', null, segmentText(chosen, 'VIP readers'))).toBe(
      'Segment: VIP readers (40%)',
    );
    expect(segmentText({ ...chosen, mode: 'all' }, 'VIP readers')).toBeNull();
  });

  it('gives the scheduled time once one is picked', () => {
    const at = new Date(2026, 10, 26, 9, 0);
    expect(summarySendingTime({ scheduled: false, scheduledAt: at })).toBe('Immediately');
    expect(summarySendingTime({ scheduled: true, scheduledAt: null })).toBe('Not selected');
    expect(summarySendingTime({ scheduled: true, scheduledAt: at })).toBe(formatDateTime(at));
  });
});

describe('the frequency cap line', () => {
  it('says how many would be skipped, or that none is over the cap, and nothing without a cap', () => {
    expect(frequencyCapLine({ messages: 2, days: 7, skipped: 12_000 })).toBe(
      '12,000 of these recipients will be skipped: they already had 2 marketing messages per person per 7 days',
    );
    expect(frequencyCapLine({ messages: 2, days: 7, skipped: 0 })).toBe(
      'Frequency cap: 2 marketing messages per person per 7 days. Nobody here is over it.',
    );
    expect(frequencyCapLine(null)).toBeNull();
    expect(frequencyCapLine(undefined)).toBeNull();
  });
});
