import { describe, expect, it } from 'vitest';
import {
  INITIAL_BROADCAST_FORM,
  broadcastPayload,
  estimateRequest,
  validateBroadcastForm,
} from './broadcast-form';
import { parseRetargetFilter, retargetFilterLabel, retargetFromSearch } from './retarget';

describe('the retarget link', () => {
  it('reads a filter by name or as the report API’s query', () => {
    expect(parseRetargetFilter('not_read')).toEqual({ outcome: 'not_read' });
    expect(parseRetargetFilter('failed')).toEqual({ outcome: 'failed' });
    expect(parseRetargetFilter('expired')).toEqual({ outcome: 'expired' });
    expect(parseRetargetFilter('skipped')).toEqual({ outcome: 'skipped' });
    expect(parseRetargetFilter('replied')).toEqual({ replied: true });
    expect(parseRetargetFilter('not_replied')).toEqual({ replied: false });
    expect(parseRetargetFilter('outcome=sent&replied=true')).toEqual({ outcome: 'sent', replied: true });
    expect(parseRetargetFilter('replied=false')).toEqual({ replied: false });
    expect(parseRetargetFilter('')).toEqual({});
    for (const bad of ['lost', 'outcome=lost', 'replied=maybe', 'clicked=maybe'])
      expect(parseRetargetFilter(bad)).toBeNull();
  });

  it('names the broadcast and filter, or says it cannot be read', () => {
    const search = (query: string) => retargetFromSearch(new URLSearchParams(query));
    expect(search('')).toBeNull();
    expect(search('retarget=5&filter=outcome%3Dfailed')).toEqual({
      kind: 'broadcast_recipients',
      broadcast_id: 5,
      filter: { outcome: 'failed' },
    });
    expect(search('retarget=abc&filter=failed')).toBe('invalid');
    expect(search('retarget=5&filter=lost')).toBe('invalid');
  });

  it('labels the filter as the report does', () => {
    expect(retargetFilterLabel({ outcome: 'not_read' })).toBe('Not read');
    expect(retargetFilterLabel({ outcome: 'not_on_whatsapp' })).toBe('Not on WhatsApp');
    expect(retargetFilterLabel({ outcome: 'expired' })).toBe('Expired');
    expect(retargetFilterLabel({ outcome: 'skipped' })).toBe('Skipped: frequency cap');
    expect(retargetFilterLabel({ outcome: 'delivered', replied: false })).toBe('Delivered, did not reply');
    expect(retargetFilterLabel({ replied: true })).toBe('Replied');
    expect(retargetFilterLabel({})).toBe('All recipients');
  });

  it('reads, labels and sends the click filters of a tracked link', () => {
    expect(parseRetargetFilter('clicked=false')).toEqual({ clicked: false });
    expect(parseRetargetFilter('not_clicked')).toEqual({ clicked: false });
    expect(parseRetargetFilter('clicked')).toEqual({ clicked: true });
    expect(parseRetargetFilter('outcome=read&replied=true&clicked=true')).toEqual({
      outcome: 'read',
      replied: true,
      clicked: true,
    });
    expect(retargetFilterLabel({ clicked: false })).toBe('Did not click');
    expect(retargetFilterLabel({ outcome: 'read', clicked: true })).toBe('Read, clicked');
    expect(retargetFilterLabel({ replied: false, clicked: false })).toBe('Did not reply, did not click');
    const audience = retargetFromSearch(new URLSearchParams('retarget=7&filter=clicked%3Dfalse'));
    expect(audience).toEqual({ kind: 'broadcast_recipients', broadcast_id: 7, filter: { clicked: false } });
    const state = {
      ...INITIAL_BROADCAST_FORM,
      name: 'Reminder',
      templateId: '2',
      retarget: audience as Exclude<typeof audience, null | 'invalid'>,
    };
    expect(broadcastPayload(state).audience).toEqual({
      kind: 'broadcast_recipients',
      broadcast_id: 7,
      filter: { clicked: false },
    });
  });

  it('sends the audience instead of recipients, with no tag needed', () => {
    const retarget = {
      kind: 'broadcast_recipients' as const,
      broadcast_id: 5,
      filter: { outcome: 'read' as const },
    };
    const state = { ...INITIAL_BROADCAST_FORM, name: 'Again', templateId: '2', retarget };
    expect(validateBroadcastForm(state)).toEqual({});
    expect(broadcastPayload(state)).toEqual({
      name: 'Again',
      template_id: 2,
      audience: retarget,
      spread_over_limit: true,
      leave_out_us_numbers: false,
    });
    expect(estimateRequest(state, false)).toEqual({
      template_id: 2,
      audience: retarget,
      leave_out_us_numbers: false,
    });
  });
});
