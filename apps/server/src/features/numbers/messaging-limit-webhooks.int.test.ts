import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../test-support/test-app';
import { signedInUser } from '../auth/auth-test-helpers';
import { postSignedWebhook } from '../webhooks/webhook-test-helpers';

// phone_number_quality_update in Meta's shapes, signed and posted as Meta would: the messaging limit is read
// only from the fields Meta defines for it, and a throughput upgrade raises the number's throughput instead.

let t: TestApp;

const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
  t.db.pool.query(sql, params).then((r) => r.rows as T[]);

interface Account {
  wabaId: string;
  id: number;
  digits: string;
}

async function account(email: string): Promise<Account> {
  const owner = await signedInUser(t, email, email.split('@')[0]);
  const id = (
    await q<{ id: number }>('select id::int from waba_accounts where waba_id = $1', [owner.business.waba_id])
  )[0]!.id;
  const number = (
    await q<{ display_phone_number: string }>(
      'select display_phone_number from phone_numbers where phone_number_id = $1',
      [owner.business.phone_number_id],
    )
  )[0]!;
  return { wabaId: owner.business.waba_id, id, digits: number.display_phone_number.replace(/\D/g, '') };
}

/** The portfolio's stored tier and limit (null limit: unlimited). */
const limitOf = async (a: Account) =>
  (
    await q<{ tier: string | null; reach_limit: number | null }>(
      `select p.tier, p.reach_limit from waba_accounts w
         join messaging_portfolios p on p.key = portfolio_key(w.user_id, w.business_id, w.waba_id)
        where w.id = $1`,
      [a.id],
    )
  )[0];

const throughputOf = async (a: Account) =>
  (
    await q<{ throughput_level: string | null }>(
      'select throughput_level from phone_numbers where waba_account_id = $1',
      [a.id],
    )
  )[0]!.throughput_level;

let sent = 0;

/** One signed phone_number_quality_update for the account, applied before it returns. */
async function qualityUpdate(a: Account, value: Record<string, unknown>) {
  sent += 1;
  // A distinct time per post: Herald stores a body once (a resent body is a duplicate).
  const time = Math.floor(Date.now() / 1000) + sent;
  const body = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: a.wabaId,
        time,
        changes: [
          { field: 'phone_number_quality_update', value: { display_phone_number: a.digits, ...value } },
        ],
      },
    ],
  });
  expect((await postSignedWebhook(t, body)).statusCode).toBe(200);
  await t.app.webhooks.idle();
  const stored = await q<{ processed: boolean; last_error: string | null }>(
    `select processed_at is not null as processed, last_error from webhook_events
      where payload @> $1::jsonb`,
    [JSON.stringify({ entry: [{ id: a.wabaId, time }] })],
  );
  expect(stored).toEqual([{ processed: true, last_error: null }]);
}

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

describe('phone_number_quality_update and the messaging limit', () => {
  it('THROUGHPUT_UPGRADE with current_limit TIER_UNLIMITED and no max_daily… keeps the limit and raises throughput', async () => {
    const a = await account('throughput@limits.test');
    const before = await limitOf(a);
    expect(before).toEqual({ tier: 'TIER_2K', reach_limit: 2_000 });
    expect(await throughputOf(a)).not.toBe('HIGH');

    await qualityUpdate(a, { event: 'THROUGHPUT_UPGRADE', current_limit: 'TIER_UNLIMITED' });
    expect(await limitOf(a)).toEqual(before);
    expect(await throughputOf(a)).toBe('HIGH');
  });

  it('sets the limit from max_daily_conversations_per_business, on THROUGHPUT_UPGRADE and on a limit change', async () => {
    const a = await account('per-business@limits.test');
    await qualityUpdate(a, {
      event: 'THROUGHPUT_UPGRADE',
      current_limit: 'TIER_UNLIMITED',
      max_daily_conversations_per_business: 'TIER_10K',
    });
    expect(await limitOf(a)).toEqual({ tier: 'TIER_10K', reach_limit: 10_000 });
    expect(await throughputOf(a)).toBe('HIGH');

    await qualityUpdate(a, {
      event: 'DOWNGRADE',
      old_limit: 'TIER_10K',
      current_limit: 'TIER_2K',
      max_daily_conversations_per_business: 'TIER_250',
    });
    expect(await limitOf(a)).toEqual({ tier: 'TIER_250', reach_limit: 250 });
  });

  it('keeps the older events’ current_limit when it is the only limit they carry', async () => {
    const a = await account('older@limits.test');
    await qualityUpdate(a, { event: 'UPGRADE', old_limit: 'TIER_2K', current_limit: 'TIER_10K' });
    expect(await limitOf(a)).toEqual({ tier: 'TIER_10K', reach_limit: 10_000 });
    await qualityUpdate(a, { event: 'ONBOARDING', current_limit: 'TIER_250' });
    expect(await limitOf(a)).toEqual({ tier: 'TIER_250', reach_limit: 250 });
  });

  it('changes nothing for an event with neither field (stored, no effect)', async () => {
    const a = await account('neither@limits.test');
    const before = await limitOf(a);
    const throughput = await throughputOf(a);
    for (const event of ['UPGRADE', 'DOWNGRADE', 'ONBOARDING', 'UNFLAGGED']) {
      await qualityUpdate(a, { event });
      expect(await limitOf(a)).toEqual(before);
    }
    expect(await throughputOf(a)).toBe(throughput);
    expect(await q('select status from phone_numbers where waba_account_id = $1', [a.id])).toEqual([
      { status: 'CONNECTED' },
    ]);
  });
});
