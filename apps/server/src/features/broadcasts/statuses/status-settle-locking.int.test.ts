import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../../test-support/test-app';
import { signedInUser } from '../../auth/auth-test-helpers';
import { createWebhookProcessor } from '../../../webhook-handlers';
import { postSignedWebhook } from '../../webhooks/webhook-test-helpers';
import { refreshBroadcastCounts } from '../broadcast-counts';
import { settleMessages, type SendResult } from '../sending/message-settle';
import { freshBroadcastRow } from '../broadcast-test-helpers';

/**
 * Status webhooks (duplicated, reordered, in concurrent batches) and the sender's settle write the same message
 * rows at the same time. Before every writer took its locks in one order (decision 022) 150 rounds deadlocked
 * in each of 3 runs (2 to 7 'deadlock detected' per run, in webhook events and in the settle); now no round
 * may. On the PostgreSQL 18 cluster `npm start` embeds, rounds also lost statuses (1 to 3 rows below what
 * their webhooks said in 3 of 4 runs) until the webhook batch locked its rows in a statement of their own
 * (decision 067); so the rounds run there too.
 */
const ROUNDS = Number(process.env.LOCKING_ROUNDS ?? 150);
const MESSAGES = 120;

/** A deterministic shuffle (a small LCG), so a failing round can be replayed. */
function shuffle<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i -= 1) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The statuses Meta would send for message `n` (row i): read, delivered or failed, each after `sent`. */
function statusesOf(id: number, n: number) {
  const wamid = `wamid.lock.${id}`;
  const base = {
    id: wamid,
    recipient_id: '14155550000',
    timestamp: '1',
    biz_opaque_callback_data: String(id),
  };
  if (n % 3 === 0) return ['sent', 'delivered', 'read'].map((status) => ({ ...base, status }));
  if (n % 3 === 1) return ['sent', 'delivered'].map((status) => ({ ...base, status }));
  return [
    { ...base, status: 'sent' },
    // A failure that is Herald's to count as failed (131026 and 131049 have outcomes of their own, decision 028).
    { ...base, status: 'failed', errors: [{ code: 131000, title: 'Something went wrong' }] },
  ];
}

function lockingRounds(database: string, start: () => Promise<TestApp>) {
  describe(`on ${database}`, () => {
    let t: TestApp;
    let wabaId: string;
    let wabaAccountId: number;
    let phoneId: number;
    const errors: string[] = [];

    async function newSendingBroadcast(): Promise<number[]> {
      const { rows } = await t.db.pool.query<{ id: number }>(
        `insert into broadcasts (waba_account_id, phone_number_id, template_name, template_language, name, audience,
                             scheduled_at, status, total_recipients, started_at)
     values ($1, $2, 'hello', 'en_US', 'locking', '{"type":"all","percentage":100}', now(), 'sending', $3, now())
     returning id::int`,
        [wabaAccountId, phoneId, MESSAGES],
      );
      const broadcastId = rows[0]!.id;
      const messages = await t.db.pool.query<{ id: number }>(
        `insert into broadcast_messages (waba_account_id, broadcast_id, whatsapp_number, state, attempts)
     select (select waba_account_id from broadcasts where id = $1), $1, '+1415' || lpad(n::text, 7, '0'), 'sending', 1 from generate_series(1, $2) n
     returning id::int`,
        [broadcastId, MESSAGES],
      );
      return messages.rows.map((r) => r.id).sort((a, b) => a - b);
    }

    beforeAll(async () => {
      t = await start();
      const owner = await signedInUser(t, 'locking@acme.test');
      wabaId = owner.business.waba_id;
      const { rows } = await t.db.pool.query(
        `select w.id::int as waba, p.id::int as phone from waba_accounts w join phone_numbers p on p.waba_account_id = w.id
      where w.waba_id = $1 limit 1`,
        [wabaId],
      );
      wabaAccountId = rows[0].waba;
      phoneId = rows[0].phone;
      // Every failed webhook event or batch is logged here (the app's processor logs through app.log).
      vi.spyOn(t.app.log, 'error').mockImplementation(((details: { err?: Error }, message: string) => {
        errors.push(`${message}: ${details?.err?.message ?? ''}`);
      }) as never);
    }, 120_000);

    afterAll(async () => {
      vi.restoreAllMocks();
      await t.close();
    });

    describe('status webhooks while the sender settles the same rows', () => {
      it(`never deadlock, and the counts are exact (${ROUNDS} rounds of ${MESSAGES} messages)`, async () => {
        const sweeper = createWebhookProcessor(t.db.pool, {
          error: (details: { err?: Error }, message: string) =>
            errors.push(`${message}: ${details.err?.message ?? ''}`),
        });
        const settleErrors: string[] = [];
        for (let round = 0; round < ROUNDS; round += 1) {
          const ids = await newSendingBroadcast();
          // Every status twice, in a shuffled order, over 12 bodies (each body a separate webhook event).
          const statuses = shuffle(
            ids.flatMap((id, n) => [...statusesOf(id, n), ...statusesOf(id, n)]),
            round + 1,
          );
          const bodies: string[] = [];
          const per = Math.ceil(statuses.length / 12);
          for (let i = 0; i < statuses.length; i += per) {
            bodies.push(
              JSON.stringify({
                object: 'whatsapp_business_account',
                entry: [
                  {
                    id: wabaId,
                    changes: [
                      {
                        field: 'messages',
                        value: { messaging_product: 'whatsapp', statuses: statuses.slice(i, i + per), round },
                      },
                    ],
                  },
                ],
              }),
            );
          }
          // The sender's answers for the same rows, in batches settled concurrently as several senders would.
          const results: SendResult[] = shuffle(ids, round + 7).map((id) => ({
            id,
            state: 'accepted',
            wamid: `wamid.lock.${id}`,
            at: new Date(),
          }));
          const settles = [0, 1, 2, 3].map(async (part) => {
            const slice = results.filter((_, i) => i % 4 === part);
            await settleMessages(t.db.pool, wabaAccountId, slice).catch((error: Error) =>
              settleErrors.push(error.message),
            );
            await refreshBroadcastCounts(t.db.pool, [await broadcastOf(ids[0]!)]).catch((error: Error) =>
              settleErrors.push(error.message),
            );
          });
          const posts = bodies.map((body) => postSignedWebhook(t, body));
          // A second processor drains in small batches meanwhile, as the worker's sweep does.
          const sweeps = [sweeper.drainAll(3), sweeper.drainAll(2), sweeper.drainAll(4)];
          const answers = await Promise.all(posts);
          await Promise.all([...settles, ...sweeps]);
          await t.app.webhooks.idle();
          await sweeper.drainAll();
          expect(answers.map((a) => a.statusCode)).toEqual(bodies.map(() => 200));

          const broadcastId = await broadcastOf(ids[0]!);
          const counts = await freshBroadcastRow(
            t.db.pool,
            broadcastId,
            'accepted_count, delivered_count, read_count, failed_count',
          );
          const third = (r: number) => ids.filter((_, n) => n % 3 === r).length;
          expect({ round, counts }).toEqual({
            round,
            counts: {
              accepted_count: third(0) + third(1),
              delivered_count: third(0) + third(1),
              read_count: third(0),
              failed_count: third(2),
            },
          });
        }
        const pending = await t.db.pool.query(
          'select count(*)::int as n from webhook_events where processed_at is null or last_error is not null',
        );
        expect({ errors, settleErrors, pending: pending.rows[0].n }).toEqual({
          errors: [],
          settleErrors: [],
          pending: 0,
        });
      }, 180_000);
    });

    async function broadcastOf(messageId: number): Promise<number> {
      const { rows } = await t.db.pool.query(
        'select broadcast_id::int from broadcast_messages where id = $1',
        [messageId],
      );
      return rows[0].broadcast_id;
    }
  });
}

lockingRounds("the suite's database server", () => startTestApp());
lockingRounds('the PostgreSQL 18 cluster npm start embeds', () => startTestApp({}, { database: 'embedded' }));
