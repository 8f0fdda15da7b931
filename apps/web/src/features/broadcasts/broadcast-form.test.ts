import { describe, expect, it } from 'vitest';
import {
  INITIAL_BROADCAST_FORM,
  SEGMENT_REQUIRED,
  broadcastPayload,
  estimateRequest,
  recipientCount,
  validateBroadcastForm,
  withSentCount,
} from './broadcast-form';
import { messagingLimitText } from './send-from';
import { contactColumnValue } from './template-preview-content';
import { ana, tags } from './test/broadcast-fixtures';

describe('recipientCount', () => {
  it('takes round(total × percentage / 100) of all contacts, 5000 while the total is unknown', () => {
    const all = { mode: 'all' as const, tagIds: [], percentage: 55 };
    expect(recipientCount(all, 1234, tags)).toEqual({ selected: 679, sampled: 679, audience: 1234 });
    expect(recipientCount(all, undefined, tags)).toEqual({ selected: 2750, sampled: 2750, audience: 5000 });
    expect(recipientCount(all, 0, tags).selected).toBe(0);
  });

  it("sums the chosen tags' counts and samples that at the percentage", () => {
    const filter = { mode: 'filter' as const, tagIds: [7, 8], percentage: 33 };
    expect(recipientCount(filter, 1234, tags)).toEqual({ selected: 165, sampled: 54, audience: 165 });
    expect(recipientCount({ ...filter, tagIds: [] }, 1234, tags).selected).toBe(0);
  });

  it("samples the segment's contacts at the percentage, 0 while unknown, and takes the server's count", () => {
    const segment = { mode: 'segment' as const, tagIds: [], percentage: 40 };
    const count = recipientCount(segment, 1234, tags, 200);
    expect(count).toEqual({ selected: 80, sampled: 80, audience: 200 });
    expect(recipientCount(segment, 1234, tags).selected).toBe(0);
    expect(withSentCount(count, 'segment', 77)).toEqual({ selected: 77, sampled: 77, audience: 200 });
  });
});

describe('the Segment mode', () => {
  const segmentMode = {
    ...INITIAL_BROADCAST_FORM,
    name: 'Lapsed',
    templateId: '5',
    mode: 'segment' as const,
  };

  it('asks for a segment (not tags), and nothing once an earlier broadcast names the recipients', () => {
    expect(validateBroadcastForm(segmentMode)).toEqual({ segment: SEGMENT_REQUIRED });
    expect(validateBroadcastForm({ ...segmentMode, segmentId: 3 })).toEqual({});
    const retarget = { kind: 'broadcast_recipients' as const, broadcast_id: 7, filter: {} };
    expect(validateBroadcastForm({ ...segmentMode, retarget })).toEqual({});
    expect(estimateRequest(segmentMode, false)).toBeNull();
  });

  it('sends the segment and the percentage in the create and the estimate', () => {
    const chosen = { ...segmentMode, segmentId: 3, percentage: 40 };
    const recipients = { type: 'segment', segment_id: 3, percentage: 40 };
    expect(broadcastPayload(chosen).recipients).toEqual(recipients);
    expect(estimateRequest(chosen, false)?.recipients).toEqual(recipients);
  });
});

describe('broadcastPayload', () => {
  it('leaves scheduled_time out when sending now, and sends whole Unix seconds when scheduled', () => {
    const base = { ...INITIAL_BROADCAST_FORM, name: ' Launch ', templateId: '5', tagIds: [9] };
    expect(broadcastPayload(base)).toEqual({
      name: 'Launch',
      template_id: 5,
      recipients: { type: 'filtered', tag_ids: [9], percentage: 55 },
      spread_over_limit: true,
      leave_out_us_numbers: false,
    });
    // The chosen number goes as Meta's id; none chosen leaves it to the server.
    expect(broadcastPayload({ ...base, phoneNumberId: '1055' }).phone_number_id).toBe('1055');
    const at = new Date(2030, 0, 2, 9, 30, 45, 500);
    expect(broadcastPayload({ ...base, scheduled: true, scheduledAt: at }).scheduled_time).toBe(
      Math.floor(at.getTime() / 1000),
    );
    // Off wins over a date left in the picker.
    expect(broadcastPayload({ ...base, scheduled: false, scheduledAt: at })).not.toHaveProperty(
      'scheduled_time',
    );
  });
});

describe('estimateRequest', () => {
  it('asks nothing for a tag filter with no tag, and sends the audience, template, number and leave-out', () => {
    expect(estimateRequest(INITIAL_BROADCAST_FORM, false)).toBeNull();
    const state = { ...INITIAL_BROADCAST_FORM, mode: 'all' as const, percentage: 40 };
    expect(estimateRequest(state, false)).toEqual({
      recipients: { type: 'all', percentage: 40 },
      leave_out_us_numbers: false,
    });
    expect(estimateRequest({ ...state, templateId: '3', phoneNumberId: '77' }, true)).toEqual({
      template_id: 3,
      recipients: { type: 'all', percentage: 40 },
      phone_number_id: '77',
      leave_out_us_numbers: true,
    });
  });

  it('says when a scheduled broadcast starts, so a category change Meta announced is priced from its date', () => {
    const at = new Date('2026-12-02T09:30:00Z');
    const state = { ...INITIAL_BROADCAST_FORM, mode: 'all' as const, percentage: 40, scheduled: true };
    expect(estimateRequest({ ...state, scheduledAt: at }, false)).toMatchObject({
      scheduled_time: at.getTime() / 1000,
    });
    expect(estimateRequest({ ...state, scheduled: false, scheduledAt: at }, false)).not.toHaveProperty(
      'scheduled_time',
    );
  });
});

describe('contactColumnValue', () => {
  it("reads the contact's field, marks a missing one, and uses samples without a contact", () => {
    expect(contactColumnValue(ana, 'name')).toBe('Ana Lima');
    expect(contactColumnValue(ana, 'age')).toBe('34');
    expect(contactColumnValue(ana, 'gender')).toBe('[gender]');
    expect(contactColumnValue(ana, 'loyalty_tier')).toBe('[loyalty_tier]');
    expect(contactColumnValue(null, 'name')).toBe('John Doe');
    // Flattened as the engine sends it; only whitespace counts as missing.
    const multiline = { ...ana, recipient_address: '12 Rua Augusta\n\t2nd floor   left' };
    expect(contactColumnValue(multiline, 'address')).toBe('12 Rua Augusta 2nd floor left');
    expect(contactColumnValue({ ...ana, recipient_address: ' \n\t ' }, 'address')).toBe('[address]');
  });
});

describe('messagingLimitText', () => {
  it("reads Meta's tiers, bare numbers and unlimited, and keeps what it does not know", () => {
    expect(messagingLimitText('TIER_2K')).toBe('2,000 recipients / 24 h');
    expect(messagingLimitText('250')).toBe('250 recipients / 24 h');
    expect(messagingLimitText('TIER_UNLIMITED')).toBe('Unlimited');
    expect(messagingLimitText('TIER_NEW')).toBe('TIER_NEW');
    expect(messagingLimitText(null)).toBe('Unknown');
  });
});
