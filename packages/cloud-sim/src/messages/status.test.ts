import { describe, expect, it, vi } from 'vitest';
import { AcceptedLog } from './accepted-log';
import { isUndeliverable } from './recipient-rules';
import { StatusEmitter } from './status-emitter';
import { inboundPayload, statusesPayload } from './status-payload';
import type { MessageInfo } from './status-payload';
import { planStatuses } from './status-plan';
import type { StatusSettings } from './status-plan';
import { WamidGenerator } from './wamid';

const settings: StatusSettings = {
  delaysMs: { sent: 100, delivered: 300, read: 800 },
  deliveredRate: 1,
  readRate: 1,
  duplicateRate: 0,
  reorderRate: 0,
  batchWindowMs: 50,
};

const message = (n: number, phoneNumberId = 'p1'): MessageInfo => ({
  wamid: `wamid.${n}`,
  phoneNumberId,
  wabaId: 'w1',
  displayDigits: '15550783881',
  recipient: `1650555${String(n).padStart(4, '1')}`,
  bizOpaqueCallbackData: `row-${n}`,
  category: 'marketing',
  conversationId: 'c1',
});

describe('planStatuses', () => {
  it('plans sent → delivered → read at the configured delays, with string-able second timestamps', () => {
    expect(planStatuses(10_000, false, settings)).toEqual([
      { due: 10_100, status: 'sent', timestamp: 10 },
      { due: 10_300, status: 'delivered', timestamp: 10 },
      { due: 10_800, status: 'read', timestamp: 10 },
    ]);
  });

  it('honours the delivered and read shares', () => {
    expect(planStatuses(0, false, { ...settings, deliveredRate: 0 }).map((p) => p.status)).toEqual(['sent']);
    expect(planStatuses(0, false, { ...settings, readRate: 0 }).map((p) => p.status)).toEqual([
      'sent',
      'delivered',
    ]);
  });

  it('plans one failed status for an undeliverable recipient (digits ending 0000)', () => {
    expect(isUndeliverable('15550000000')).toBe(true);
    expect(isUndeliverable('15550001000')).toBe(false);
    expect(planStatuses(0, true, settings)).toEqual([{ due: 100, status: 'failed', timestamp: 0 }]);
  });

  it('reorders (read posted before delivered, timestamps kept) and duplicates on demand', () => {
    const reordered = planStatuses(0, false, { ...settings, reorderRate: 1 });
    const order = [...reordered].sort((a, b) => a.due - b.due).map((p) => p.status);
    expect(order).toEqual(['sent', 'read', 'delivered']);
    const duplicated = planStatuses(0, false, { ...settings, duplicateRate: 1 });
    expect(duplicated.map((p) => p.status)).toEqual([
      'sent',
      'delivered',
      'read',
      'sent',
      'delivered',
      'read',
    ]);
    expect(duplicated[3]!.due).toBeGreaterThan(duplicated[0]!.due + 50);
  });
});

describe('statusesPayload', () => {
  it("is Meta's messages notification: a change per number, statuses with string timestamps", () => {
    const payload = statusesPayload('w1', [
      { message: message(1), status: 'sent', timestamp: 1_750_263_773 },
      { message: message(1), status: 'read', timestamp: 1_750_263_775 },
      { message: message(2), status: 'failed', timestamp: 1_750_263_774 },
      { message: message(3, 'p2'), status: 'delivered', timestamp: 1_750_263_776 },
    ]);
    expect(payload.object).toBe('whatsapp_business_account');
    expect(payload.entry).toHaveLength(1);
    const [first, second] = payload.entry[0]!.changes;
    expect(first!.field).toBe('messages');
    expect(first!.value.metadata).toEqual({ display_phone_number: '15550783881', phone_number_id: 'p1' });
    expect(first!.value.statuses[0]).toEqual({
      id: 'wamid.1',
      status: 'sent',
      timestamp: '1750263773',
      recipient_id: '16505551111',
      biz_opaque_callback_data: 'row-1',
      conversation: { id: 'c1', expiration_timestamp: '1750350173', origin: { type: 'marketing' } },
      pricing: { billable: true, pricing_model: 'PMP', category: 'marketing', type: 'regular' },
    });
    expect(first!.value.statuses[1]).toEqual({
      id: 'wamid.1',
      status: 'read',
      timestamp: '1750263775',
      recipient_id: '16505551111',
      biz_opaque_callback_data: 'row-1',
    });
    expect(first!.value.statuses[2]).toMatchObject({
      status: 'failed',
      errors: [
        {
          code: 131026,
          title: 'Message undeliverable',
          message: expect.any(String),
          error_data: { details: expect.any(String) },
        },
      ],
    });
    expect(second!.value.metadata.phone_number_id).toBe('p2');
  });

  it('builds an inbound text message with the contact', () => {
    const payload = inboundPayload({
      wabaId: 'w1',
      phoneNumberId: 'p1',
      displayDigits: '15550783881',
      from: '16505551234',
      profileName: 'Kerry',
      wamid: 'wamid.in',
      timestamp: 1_750_000_000,
      content: { type: 'text', body: 'STOP' },
    });
    expect(payload.entry[0]!.changes[0]!.value).toEqual({
      messaging_product: 'whatsapp',
      metadata: { display_phone_number: '15550783881', phone_number_id: 'p1' },
      contacts: [{ profile: { name: 'Kerry' }, wa_id: '16505551234' }],
      messages: [
        {
          from: '16505551234',
          id: 'wamid.in',
          timestamp: '1750000000',
          type: 'text',
          text: { body: 'STOP' },
        },
      ],
    });
  });
});

describe('StatusEmitter', () => {
  it('posts due statuses in batches of at most batchSize, and nothing after stop', () => {
    vi.useFakeTimers({ now: 0 });
    try {
      const posts: unknown[] = [];
      const emitter = new StatusEmitter(
        (_waba, payload) => posts.push(payload),
        () => ({ batchSize: 100, windowMs: 50 }),
      );
      for (let i = 0; i < 250; i++)
        emitter.schedule(message(i), [{ due: 100, status: 'sent', timestamp: 0 }]);
      emitter.schedule(message(999), [{ due: 10_000, status: 'sent', timestamp: 10 }]);
      vi.advanceTimersByTime(99);
      expect(posts).toHaveLength(0);
      vi.advanceTimersByTime(1);
      expect(posts).toHaveLength(3);
      expect(emitter.stats()).toEqual({ pending_statuses: 1, statuses_posted: 250, posts: 3 });
      emitter.stop();
      vi.advanceTimersByTime(20_000);
      expect(posts).toHaveLength(3);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('AcceptedLog', () => {
  it('filters by number, recipient and time, and counts duplicates', () => {
    const log = new AcceptedLog();
    const add = (to: string, at: number, phoneNumberId = 'p1') =>
      log.add({
        wamid: `w${at}`,
        phoneNumberId,
        to,
        templateName: 't',
        language: 'en',
        bizOpaqueCallbackData: null,
        acceptedAt: at,
        ttlSeconds: 2_592_000,
        parameters: { body: ['x'] },
      });
    add('1', 1000);
    add('2', 2000);
    add('1', 3000);
    add('3', 4000, 'p2');
    const all = log.query({});
    expect(all).toMatchObject({
      total: 4,
      unique_recipients: 3,
      duplicate_recipients: [{ to: '1', count: 2 }],
    });
    expect(all.data[0]).toEqual({
      wamid: 'w1000',
      phone_number_id: 'p1',
      to: '1',
      template: { name: 't', language: 'en' },
      biz_opaque_callback_data: null,
      endpoint: 'messages',
      accepted_at: new Date(1000).toISOString(),
      ttl_seconds: 2_592_000,
      parameters: { body: ['x'] },
    });
    expect(log.query({ phoneNumberId: 'p2' }).total).toBe(1);
    expect(log.query({ since: 2500 })).toMatchObject({ total: 2, duplicate_recipients: [] });
    expect(log.query({ limit: 1, offset: 1 }).data.map((r) => r.wamid)).toEqual(['w2000']);
  });
});

describe('WamidGenerator', () => {
  it("makes unique ids in Meta's layout (base64 with the recipient inside)", () => {
    const ids = new WamidGenerator();
    const a = ids.next('16505551234');
    const b = ids.next('16505551234');
    expect(a).toMatch(/^wamid\.HBgLMTY1MDU1NTEyMzQV[A-Za-z0-9+/=]+$/);
    expect(a).not.toBe(b);
  });
});
