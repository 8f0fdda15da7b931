// A segment's live count (POST /segments/count/) and New broadcast's estimate for a segment
// (POST /broadcast/estimate/) on an account with 1,000,000 contacts and 10,000,000 message rows, for a union of
// two tags, a column rule, "read in the last 30 days but did not reply in them", and the three together (AND).
// Rows are written by SQL in their final states (as dashboard.bench.ts does). Sizes: BENCH_CONTACTS (1,000,000),
// BENCH_MESSAGES (10,000,000), BENCH_RUNS per figure (20). Goal: p95 ≤ 300 ms each. BENCH_KEEP_DATABASE=1 keeps
// the database afterwards (its name is printed) to explain the queries in psql.
import { performance } from 'node:perf_hooks';
import { migrate } from '../apps/server/src/db/migrate';
import { makeBusiness } from '../test-support/business';
import { startTestApp, type TestApp } from '../test-support/test-app';
import { createScratchDatabase } from '../test-support/database-server';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 1_000_000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 10_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const TAGS = 20;
// Each broadcast reaches a tenth of the contacts (those with id % 10 = its own), one every few days over a year.
const BROADCASTS = Math.max(1, Math.round(MESSAGES / (CONTACTS / 10)));

const database = await createScratchDatabase(`herald_bench_segments_${process.pid}`);
let t: TestApp | undefined;
const timings: Record<string, number> = {};
const timed = async <T>(name: string, run: () => Promise<T>) => {
  const t0 = performance.now();
  const value = await run();
  timings[name] = Math.round(performance.now() - t0);
  return value;
};
try {
  await migrate(database.url);
  t = await startTestApp(
    { ACCESS_TOKEN_TTL_SECONDS: '86400' },
    { database: { url: database.url, poolSize: 10 } },
  );
  const { app } = t;
  const pool = t.db.pool;
  const { business, headers, templateIds } = await makeBusiness(t, {
    email: 'bench@segments.test',
    templates: [{ name: 'segment_bench' }],
  });
  const { rows } = await pool.query(
    `select w.id::int as account, p.id::int as phone from waba_accounts w join phone_numbers p on p.waba_account_id = w.id
      where w.waba_id = $1`,
    [business.waba_id],
  );
  const { account, phone } = rows[0];

  await timed('setup_contacts_ms', async () => {
    await pool.query(
      `insert into contacts (waba_account_id, name, whatsapp_number, age, attributes, created_at)
       select $1, 'Contact ' || i, '+4479' || lpad(i::text, 9, '0'), 18 + i % 60,
              jsonb_build_object('plan', (array['gold', 'silver', 'bronze', 'free'])[1 + (i * 7) % 20 / 5]),
              now() - (i % 700) * interval '1 day'
         from generate_series(1, $2) i`,
      [account, CONTACTS],
    );
    await pool.query(`insert into contact_columns (waba_account_id, name) values ($1, 'plan')`, [account]);
    await pool.query(
      `insert into tags (waba_account_id, name) select $1, 'Tag ' || g from generate_series(1, $2) g`,
      [account, TAGS],
    );
    // Every contact one tag (id % 20), a tenth a second one.
    await pool.query(
      `insert into contact_tags (waba_account_id, contact_id, tag_id)
       select $1, c.id, t.id from contacts c
         join lateral (select id from tags where waba_account_id = $1 order by id offset (c.id % $2) limit 1) t on true
        where c.waba_account_id = $1
       union
       select $1, c.id, t.id from contacts c
         join lateral (select id from tags where waba_account_id = $1 order by id offset ((c.id / 10) % $2) limit 1) t on true
        where c.waba_account_id = $1 and c.id % 10 = 0`,
      [account, TAGS],
    );
  });
  await pool.query(
    `insert into broadcasts (waba_account_id, phone_number_id, template_name, template_language, name, audience,
                             scheduled_at, started_at, completed_at, status, total_recipients, template_category)
     select $1, $2, 'bench', 'en_US', 'Bench ' || b, '{}', t, t, t + interval '1 hour', 'completed', 0, 'MARKETING'
       from generate_series(1, $3) b, lateral (select now() - (b * interval '365 days' / $3) as t) x`,
    [account, phone, BROADCASTS],
  );
  // Final states: 97 % delivered, 60 % read, 2 % failed, 10 % replied, 5 % clicked. Written with the per-row
  // activity trigger off, and the contacts' activity (migration 051) built from them after, in one statement.
  await pool.query('alter table broadcast_messages disable trigger broadcast_messages_activity_insert');
  await timed('setup_messages_ms', () =>
    pool.query(
      `insert into broadcast_messages (waba_account_id, broadcast_id, contact_id, whatsapp_number, state, wamid,
                                       accepted_at, delivered_at, read_at, failed_at, engaged_at, replied_at, clicked_at)
       select b.waba_account_id, b.id, c.id, c.whatsapp_number,
              case when r < 0.02 then 'failed' when r < 0.6 then 'read' when r < 0.97 then 'delivered' else 'sent' end,
              'wamid.' || b.id || '.' || c.id, b.started_at,
              case when r >= 0.02 and r < 0.97 then b.started_at + interval '5 seconds' end,
              case when r >= 0.02 and r < 0.6 then b.started_at + interval '2 hours' end,
              case when r < 0.02 then b.started_at end,
              case when r >= 0.02 and r < 0.12 then b.started_at + interval '70 minutes' end,
              case when r >= 0.02 and r < 0.12 then b.started_at + interval '70 minutes' end,
              case when r >= 0.3 and r < 0.35 then b.started_at + interval '3 hours' end
         from broadcasts b
         join contacts c on c.waba_account_id = b.waba_account_id and c.id % 10 = b.id % 10
         cross join lateral (select ((c.id * 7919 + b.id * 104729) % 10007)::float8 / 10007 as r) x
        where b.waba_account_id = $1`,
      [account],
    ),
  );
  await pool.query('alter table broadcast_messages enable trigger broadcast_messages_activity_insert');
  await timed('setup_activity_ms', () => pool.query('select contact_activity_rebuild($1)', [account]));
  await timed('setup_analyze_ms', () => pool.query('vacuum analyze'));
  // Tags 4 and 5 (contacts with id % 20 = 3 or 4): some of them on plan gold and reached in the last 30 days, so
  // the AND of the three rules holds someone.
  const tagIds = (
    await pool.query<{ id: number }>(
      'select id::int from tags where waba_account_id = $1 order by id offset 3 limit 2',
      [account],
    )
  ).rows.map((row) => row.id);
  const counts = (
    await pool.query(
      `select (select count(*) from contacts)::int as contacts, (select count(*) from broadcast_messages)::int as messages,
              (select count(*) from contact_tags)::int as tag_links`,
    )
  ).rows[0];

  const rule = {
    union_of_tags: { kind: 'tags', match: 'any', tag_ids: tagIds },
    column: { kind: 'text', column: 'plan', op: 'equals', value: 'gold' },
  };
  const readNotReplied = [
    { kind: 'engagement', event: 'read', did: true, within_days: 30 },
    { kind: 'engagement', event: 'replied', did: false, within_days: 30 },
  ];
  const definitions: Record<string, object> = {
    union_of_tags: { match: 'all', groups: [{ match: 'all', rules: [rule.union_of_tags] }] },
    column: { match: 'all', groups: [{ match: 'all', rules: [rule.column] }] },
    read_not_replied_30_days: { match: 'all', groups: [{ match: 'all', rules: readNotReplied }] },
    all_three: {
      match: 'all',
      groups: [{ match: 'all', rules: [rule.union_of_tags, rule.column, ...readNotReplied] }],
    },
  };

  const percentiles = (latencies: number[]) => {
    const sorted = [...latencies].sort((a, b) => a - b);
    const at = (q: number) =>
      Number(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1));
    return { p50_ms: at(0.5), p95_ms: at(0.95), max_ms: at(1) };
  };
  const measure = async (request: () => Promise<{ statusCode: number; body: string }>) => {
    const latencies: number[] = [];
    let body = '';
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const response = await request();
      latencies.push(performance.now() - t0);
      if (response.statusCode !== 200) throw new Error(`answered ${response.statusCode}: ${response.body}`);
      body = response.body;
    }
    return { ...percentiles(latencies), answer: JSON.parse(body) as Record<string, unknown> };
  };

  const segmentCounts: Record<string, unknown> = {};
  const estimates: Record<string, unknown> = {};
  for (const [name, definition] of Object.entries(definitions)) {
    const count = await measure(() =>
      app.inject({ method: 'POST', url: '/segments/count/', headers, payload: { definition } }),
    );
    segmentCounts[name] = { ...count, answer: undefined, matching: count.answer.matching };
    const saved = await app.inject({
      method: 'POST',
      url: '/segments/',
      headers,
      payload: { name, definition },
    });
    const segmentId = (saved.json() as { id: number }).id;
    const estimate = await measure(() =>
      app.inject({
        method: 'POST',
        url: '/broadcast/estimate/',
        headers,
        payload: {
          template_id: templateIds[0],
          recipients: { type: 'segment', segment_id: segmentId, percentage: 100 },
        },
      }),
    );
    estimates[name] = { ...estimate, answer: undefined, recipients: estimate.answer.recipients };
  }
  console.log(
    JSON.stringify({
      benchmark: 'segments',
      database: database.source,
      ...counts,
      broadcasts: BROADCASTS,
      runs: RUNS,
      segment_count: segmentCounts,
      estimate: estimates,
      goal_p95_ms: 300,
      ...timings,
    }),
  );
} finally {
  await t?.close();
  if (process.env.BENCH_KEEP_DATABASE === '1') console.error(`kept database ${database.url}`);
  else await database.drop();
}
