import type { BroadcastRecipient, BroadcastReport } from '@herald/contracts';

/* A delivery report's answers (GET /broadcast/{id}/recipients/) for the report's tests. */

/** A delivered recipient, 'Contact {id}', who has not replied. */
export function recipient(id: number, overrides: Partial<BroadcastRecipient> = {}): BroadcastRecipient {
  return {
    id,
    contact_name: `Contact ${id}`,
    whatsapp_number: `+1415555${String(1000 + id)}`,
    outcome: 'delivered',
    error_code: null,
    error_title: null,
    updated_at: '2026-01-15T09:05:00.000Z',
    reply: null,
    ...overrides,
  };
}

/** Broadcast 7, 'Summer launch': 40 recipients (28 delivered, 10 read, 2 failed), the first of two pages. */
export function report(
  results: BroadcastRecipient[],
  overrides: Partial<BroadcastReport> = {},
): BroadcastReport {
  return {
    broadcast: {
      id: 7,
      name: 'Summer launch',
      template_name: 'summer_sale',
      status: 'completed',
      scheduled: '2026-01-15T09:00:00.000Z',
      audience: {
        type: 'all',
        tags: [],
        percentage: 100,
        leave_out_us: false,
        from_broadcast_id: null,
        recipients: 40,
      },
    },
    outcomes: {
      pending: 0,
      held: 0,
      sent: 0,
      delivered: 28,
      read: 10,
      failed: 2,
      limited: 0,
      not_on_whatsapp: 0,
      expired: 0,
      skipped: 0,
      unknown: 0,
      cancelled: 0,
    },
    failure_reasons: [],
    replied: 0,
    reply_rate: 0,
    count: 40,
    next: 'http://api.test/broadcast/7/recipients/?page=2',
    previous: null,
    results,
    ...overrides,
  };
}
