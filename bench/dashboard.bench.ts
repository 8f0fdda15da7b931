// GET /dashboard/ for a 90-day range on an account with 10,000,000 message rows and 1,000,000
// replies. The rows are written by SQL (generate_series) in their final states, and the hourly figures, activity
// and reply links derived from them as the triggers would have kept them (decision 032), so the setup takes
// minutes, not the days a real send would. The request reads only dashboard_hours and dashboard_active_pairs. Sizes: BENCH_MESSAGES (default 10,000,000), BENCH_RECIPIENTS per broadcast (50,000).
import { performance } from 'node:perf_hooks';
import { migrate } from '../apps/server/src/db/migrate';
import { activeContacts } from '../apps/server/src/features/dashboard/active-contacts';
import { makeBusiness } from '../test-support/business';
import { startTestApp, type TestApp } from '../test-support/test-app';
import { createScratchDatabase } from '../test-support/database-server';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 10_000_000);
const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 50_000);
const BROADCASTS = Math.ceil(MESSAGES / RECIPIENTS);
const REPLY_SHARE = 0.1;
const REQUESTS = 200;
const ACTIVE_RANGES = 40;

const database = await createScratchDatabase(`herald_bench_dashboard_${process.pid}`);
const url = database.url;
let t: TestApp | undefined;
const timings: Record<string, number> = {};
const timed = async <T>(name: string, run: () => Promise<T>) => {
  const t0 = performance.now();
  const value = await run();
  timings[name] = Math.round(performance.now() - t0);
  return value;
};
try {
  await migrate(url);
  t = await startTestApp({ ACCESS_TOKEN_TTL_SECONDS: '86400' }, { database: { url, poolSize: 10 } });
  const { app } = t;
  const pool = t.db.pool;
  const { business, headers } = await makeBusiness(t, { email: 'bench@acme.test' });
  const { rows } = await pool.query(
    `select w.id::int as account, p.id::int as phone from waba_accounts w join phone_numbers p on p.waba_account_id = w.id
      where w.waba_id = $1`,
    [business.waba_id],
  );
  const { account, phone } = rows[0];

  // One broadcast every 365/BROADCASTS days over the last year, each to the same RECIPIENTS contacts.
  await timed('setup_contacts_ms', () =>
    pool.query(
      `insert into contacts (waba_account_id, name, whatsapp_number)
       select $1, 'Contact ' || i, '+3361' || lpad(i::text, 7, '0') from generate_series(1, $2) i`,
      [account, RECIPIENTS],
    ),
  );
  await pool.query(
    `insert into broadcasts (waba_account_id, phone_number_id, template_name, template_language, name, audience,
                             scheduled_at, started_at, completed_at, status, total_recipients, template_category)
     select $1, $2, 'bench', 'en_US', 'Bench ' || b, '{}', t, t, t + interval '1 hour', 'completed', $4,
            (array['MARKETING', 'UTILITY', 'AUTHENTICATION'])[1 + b % 3]
       from generate_series(1, $3) b, lateral (select now() - (b * interval '365 days' / $3) as t) x`,
    [account, phone, BROADCASTS, RECIPIENTS],
  );
  // Final states: 97 % delivered, 60 % read, 2 % failed; 10 % replied (a third of them by a button press).
  // Written without segments' per-row activity trigger (decision 101): the Dashboard never reads it.
  await pool.query('alter table broadcast_messages disable trigger broadcast_messages_activity_insert');
  await timed('setup_messages_ms', () =>
    pool.query(
      `insert into broadcast_messages (waba_account_id, broadcast_id, contact_id, whatsapp_number, state, wamid,
                                       accepted_at, delivered_at, read_at, failed_at, engaged_at, replied_at)
       select b.waba_account_id, b.id, c.id, c.whatsapp_number,
              case when r < 0.02 then 'failed' when r < 0.6 then 'read' when r < 0.97 then 'delivered' else 'sent' end,
              'wamid.' || b.id || '.' || c.id, b.started_at + (r * interval '50 minutes'),
              case when r >= 0.02 and r < 0.97 then b.started_at + (r * interval '50 minutes') + interval '5 seconds' end,
              case when r >= 0.02 and r < 0.6 then b.started_at + interval '2 hours' end,
              case when r < 0.02 then b.started_at + (r * interval '50 minutes') end,
              case when r >= 0.02 and r < 0.02 + ${REPLY_SHARE} then b.started_at + interval '70 minutes' end,
              case when r >= 0.02 and r < 0.02 + ${(REPLY_SHARE * 2) / 3} then b.started_at + interval '70 minutes' end
         from broadcasts b cross join contacts c
         cross join lateral (select ((c.id * 7919 + b.id * 104729) % 10007)::float8 / 10007 as r) x
        where b.waba_account_id = $1 and c.waba_account_id = $1`,
      [account],
    ),
  );
  await pool.query('alter table broadcast_messages enable trigger broadcast_messages_activity_insert');
  await timed('setup_replies_ms', async () => {
    await pool.query('analyze broadcast_messages');
    await pool.query(
      `insert into inbound_messages (waba_account_id, wamid, from_number, contact_id, kind, body, sent_at,
                                     broadcast_message_id)
       select $1, 'wamid.in.' || m.id, m.whatsapp_number, m.contact_id,
              case when m.replied_at is null then 'button' else 'text' end, 'Thanks', m.engaged_at, m.id
         from broadcast_messages m where m.engaged_at is not null`,
      [account],
    );
    await pool.query('analyze inbound_messages');
    // Setup only: the figures are derived below from the final rows, so the update trigger (and the foreign
    // keys' checks) are skipped for this one statement.
    const client = await pool.connect();
    try {
      await client.query('set session_replication_role = replica');
      await client.query(
        `update broadcast_messages m set reply_id = i.id from inbound_messages i where i.broadcast_message_id = m.id`,
      );
    } finally {
      await client.query('reset session_replication_role');
      client.release();
    }
  });
  // What the triggers keep, derived once from the rows (the integration test proves the two equal).
  await timed('setup_figures_ms', async () => {
    await pool.query(
      'truncate dashboard_hours, dashboard_active, dashboard_active_pairs, dashboard_last_active',
    );
    await pool.query(
      `insert into dashboard_hours
       select b.waba_account_id, f.hour, b.template_category, sum(f.sent), sum(f.delivered), sum(f.read),
              sum(f.failed), sum(f.replied), sum(f.engaged), sum(f.response_seconds)
         from broadcast_messages m join broadcasts b on b.id = m.broadcast_id
         cross join lateral dashboard_figures(m) f where f.hour is not null group by 1, 2, 3`,
    );
    // The (hour, previous hour) counts in one pass over the rows rather than by the trigger's per-number steps.
    await pool.query('alter table dashboard_active disable trigger dashboard_active_pairs_added');
    await pool.query(
      `insert into dashboard_active
       select distinct b.waba_account_id, date_trunc('hour', m.accepted_at), m.whatsapp_number
         from broadcast_messages m join broadcasts b on b.id = m.broadcast_id where m.accepted_at is not null`,
    );
    await pool.query('alter table dashboard_active enable trigger dashboard_active_pairs_added');
    await pool.query('select dashboard_active_pairs_rebuild($1)', [account]);
    await pool.query(
      `insert into dashboard_last_active
       select b.waba_account_id, m.whatsapp_number, max(m.accepted_at)
         from broadcast_messages m join broadcasts b on b.id = m.broadcast_id group by 1, 2`,
    );
    await pool.query('vacuum analyze');
  });
  const counts = (
    await pool.query(
      `select (select count(*) from broadcast_messages)::int as messages,
              (select count(*) from inbound_messages)::int as replies,
              (select count(*) from dashboard_hours)::int as hour_rows,
              (select count(*) from dashboard_active)::int as activity_rows,
              (select count(*) from dashboard_active_pairs)::int as activity_pair_rows`,
    )
  ).rows[0];

  const today = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.now() - 89 * 86_400_000).toISOString().slice(0, 10);
  const request = async (query: string) => {
    const t0 = performance.now();
    const response = await app.inject({ method: 'GET', url: `/dashboard/?${query}`, headers });
    if (response.statusCode !== 200)
      throw new Error(`dashboard answered ${response.statusCode}: ${response.body}`);
    return performance.now() - t0;
  };
  const query = `from=${from}&to=${today}&tz=Europe/Paris`;
  const firstMs = await request(query);
  const latencies: number[] = [];
  for (let i = 0; i < REQUESTS; i++) latencies.push(await request(query));
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    Number(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(1));
  // A past 90-day range never asked before.
  const pastFrom = new Date(Date.now() - 269 * 86_400_000).toISOString().slice(0, 10);
  const pastTo = new Date(Date.now() - 180 * 86_400_000).toISOString().slice(0, 10);
  const pastColdMs = await request(`from=${pastFrom}&to=${pastTo}&tz=Europe/Paris`);
  // Active Contacts alone for 90-day ranges starting anywhere in the year of sends, each asked once.
  const activeMs: number[] = [];
  for (let i = 0; i < ACTIVE_RANGES; i++) {
    const start = new Date(Date.now() - (90 + (i * 275) / ACTIVE_RANGES) * 86_400_000);
    const t0 = performance.now();
    await activeContacts(pool, account, start, new Date(start.getTime() + 90 * 86_400_000));
    activeMs.push(performance.now() - t0);
  }
  activeMs.sort((a, b) => a - b);
  const activeAt = (q: number) => Number(activeMs[Math.floor(q * (activeMs.length - 1))]!.toFixed(1));
  console.log(
    JSON.stringify({
      benchmark: 'dashboard',
      database: database.source,
      ...counts,
      broadcasts: BROADCASTS,
      range_days: 90,
      requests: REQUESTS,
      p50_ms: at(0.5),
      p95_ms: at(0.95),
      p99_ms: at(0.99),
      first_request_ms: Number(firstMs.toFixed(1)),
      past_range_first_request_ms: Number(pastColdMs.toFixed(1)),
      goal_p95_ms: 100,
      active_contacts_90_day_ranges: ACTIVE_RANGES,
      active_contacts_p50_ms: activeAt(0.5),
      active_contacts_p95_ms: activeAt(0.95),
      active_contacts_goal_p95_ms: 100,
      ...timings,
    }),
  );
} finally {
  await t?.close();
  await database.drop();
}
