// The cost estimate at 1,000,000 contacts (decisions 049 and 062): PricingService.estimate on a
// fresh database, for everyone, a tag on a tenth (at 50 %) and a tag on everyone, read from the counts by prefix
// migration 031 keeps, against the 300 ms p95 goal; any of two tags (no kept count: the contacts grouped by
// prefix in SQL) beside them; and the recipients estimate New broadcast shows beside the cost
// (estimateAudience). BENCH_CONTACTS changes the size, BENCH_RUNS the runs.
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { migrate } from '../apps/server/src/db/migrate';
import { createPool } from '../apps/server/src/db/pool';
import { estimateAudience } from '../apps/server/src/features/broadcasts/audience/broadcast-estimate';
import { PricingService } from '../apps/server/src/features/pricing/pricing-service';
import { loadRateCard } from '../apps/server/src/features/pricing/rate-card';
import { createScratchDatabase } from '../test-support/database-server';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);

const database = await createScratchDatabase(`herald_bench_pricing_${process.pid}`);
const url = database.url;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;

try {
  await migrate(url);
  const pool = createPool(url, 4);
  const { rows } = await pool.query<{ id: number }>(
    `with u as (insert into users (email, password_hash, pin_hash) values ('bench@example.com', 'x', 'x') returning id)
     insert into waba_accounts (waba_id, user_id, business_token_encrypted) select 'bench-waba', id, 'x' from u
     returning id::int`,
  );
  const id = rows[0]!.id;
  // Numbers across many markets: a calling code from a mix of countries and 9 more digits.
  const codes = [
    '1415',
    '1212',
    '44',
    '49',
    '91',
    '234',
    '254',
    '55',
    '52',
    '62',
    '33',
    '39',
    '34',
    '971',
    '966',
    '7',
  ];
  const fill = performance.now();
  // In statements of 25,000 rows, as an import writes its chunks: each appends its changes to the kept counts
  // (migration 031), so the estimate sums 40 rows per prefix, as it would after such an import.
  const CHUNK = 25_000;
  for (let first = 1; first <= CONTACTS; first += CHUNK) {
    await pool.query(
      `insert into contacts (waba_account_id, name, whatsapp_number)
       select $1, 'C' || i, '+' || ($2::text[])[1 + i % array_length($2::text[], 1)] || lpad(i::text, 9, '0')
         from generate_series($3::int, $4::int) i`,
      [id, codes, first, Math.min(CONTACTS, first + CHUNK - 1)],
    );
  }
  const tag = await pool.query<{ id: number }>(
    `insert into tags (waba_account_id, name) values ($1, 'tenth') returning id::int`,
    [id],
  );
  await pool.query(
    `insert into contact_tags (waba_account_id, contact_id, tag_id) select c.waba_account_id, c.id, $2 from contacts c where c.waba_account_id = $1 and c.id % 10 = 0`,
    [id, tag.rows[0]!.id],
  );
  const all = await pool.query<{ id: number }>(
    `insert into tags (waba_account_id, name) values ($1, 'all') returning id::int`,
    [id],
  );
  await pool.query(
    `insert into contact_tags (waba_account_id, contact_id, tag_id) select c.waba_account_id, c.id, $2 from contacts c where c.waba_account_id = $1`,
    [id, all.rows[0]!.id],
  );
  await pool.query(
    `insert into templates (waba_account_id, name, language, category, status, components)
     values ($1, 'promo', 'en_US', 'MARKETING', 'APPROVED', '[]')`,
    [id],
  );
  await pool.query('vacuum analyze');
  const fillSeconds = (performance.now() - fill) / 1000;
  const templateId = (await pool.query<{ id: number }>('select id::int from templates')).rows[0]!.id;
  const pricing = new PricingService(pool, loadRateCard());
  const waba = { id, wabaId: 'bench-waba', userId: 0, businessTokenEncrypted: 'x' };

  async function measure(recipients: object) {
    const times: number[] = [];
    let total = 0;
    for (let run = 0; run < RUNS + 3; run += 1) {
      const start = performance.now();
      const answer = await pricing.estimate(waba, {
        template_id: templateId,
        recipients: recipients as never,
        leave_out_us_numbers: false,
      });
      if (run >= 3) times.push(performance.now() - start); // the first runs warm the cache and the plan
      total = answer.total ?? 0;
    }
    times.sort((a, b) => a - b);
    const round = (v: number) => Math.round(v * 10) / 10;
    return {
      p50_ms: round(percentile(times, 0.5)),
      p95_ms: round(percentile(times, 0.95)),
      max_ms: round(times.at(-1)!),
      total_usd: total,
    };
  }

  // The recipients estimate New broadcast asks for beside the cost (POST /broadcast/estimate/: recipients, new
  // to the 24-hour window, US numbers), for the same two audiences.
  async function measureRecipients(tagIds: number[] | null, percentage: number) {
    const times: number[] = [];
    let recipients = 0;
    for (let run = 0; run < RUNS + 3; run += 1) {
      const start = performance.now();
      const answer = await estimateAudience(pool, waba, {
        source: { kind: 'tags', tagIds },
        percentage,
        category: 'MARKETING',
        leaveOutUs: false,
      });
      if (run >= 3) times.push(performance.now() - start);
      recipients = answer.recipients;
    }
    times.sort((a, b) => a - b);
    const round = (v: number) => Math.round(v * 10) / 10;
    return { p50_ms: round(percentile(times, 0.5)), p95_ms: round(percentile(times, 0.95)), recipients };
  }
  const recipientsEstimate = {
    everyone: await measureRecipients(null, 100),
    tagged: await measureRecipients([tag.rows[0]!.id], 50),
  };
  const everyone = await measure({ type: 'all', percentage: 100 });
  const tagged = await measure({ type: 'filtered', tag_ids: [tag.rows[0]!.id], percentage: 50 });
  const tagOnEveryone = await measure({ type: 'filtered', tag_ids: [all.rows[0]!.id], percentage: 100 });
  const twoTags = await measure({
    type: 'filtered',
    tag_ids: [tag.rows[0]!.id, all.rows[0]!.id],
    percentage: 100,
  });
  console.log(
    JSON.stringify({
      contacts: CONTACTS,
      runs: RUNS,
      fill_seconds: Math.round(fillSeconds),
      everyone,
      tagged,
      tag_on_everyone: tagOnEveryone,
      two_tags_uncounted: twoTags,
      recipients_estimate: recipientsEstimate,
      goal_p95_ms: 300,
      loadavg: loadavg().map((v) => Math.round(v * 100) / 100),
    }),
  );
  await pool.end();
} finally {
  await database.drop();
}
