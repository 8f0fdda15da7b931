import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../../test-support/test-app';
import { signedInUser } from '../../auth/auth-test-helpers';
import { markCountsStale, refreshBroadcastCounts } from '../broadcast-counts';

// Decision 036: the history's date range, sort and Export, honest cards and pause, the report's Export.
let t: TestApp;
let headers: Record<string, string>;
let wabaAccountId: number;
let phoneId: number;
let stranger: Record<string, string>;

const get = (url: string, as = headers) => t.app.inject({ method: 'GET', url, headers: as });

type Seed = {
  name: string;
  scheduledAt: string;
  status?: string;
  createdAt?: string;
  total?: number;
  audience?: object;
  /** Message states, one row each (numbers +1555000NNNN in order). */
  states?: string[];
};

async function seedBroadcast(seed: Seed): Promise<number> {
  const { rows } = await t.db.pool.query<{ id: number }>(
    `insert into broadcasts (waba_account_id, phone_number_id, template_name, template_language, name, audience,
                             scheduled_at, status, total_recipients, created_at)
     values ($1, $2, 'promo_template', 'en_US', $3, $4, $5, $6, $7, coalesce($8::timestamptz, now()))
     returning id::int`,
    [
      wabaAccountId,
      phoneId,
      seed.name,
      JSON.stringify(seed.audience ?? { type: 'all', tag_ids: null, percentage: 100, leave_out_us: false }),
      seed.scheduledAt,
      seed.status ?? 'completed',
      seed.total ?? seed.states?.length ?? 0,
      seed.createdAt ?? null,
    ],
  );
  const id = rows[0]!.id;
  if (seed.states?.length) {
    await t.db.pool.query(
      `insert into broadcast_messages (waba_account_id, broadcast_id, whatsapp_number, state)
       select (select waba_account_id from broadcasts where id = $1), $1, '+1555' || lpad((i + $3)::text, 7, '0'), s from unnest($2::text[]) with ordinality as u(s, i)`,
      [id, seed.states, id * 1000],
    );
    await refreshBroadcastCounts(t.db.pool, [id]);
  }
  return id;
}

/** Parses the CSV Herald writes (BOM, CRLF, quoted cells): rows of cells. */
function parseCsv(text: string): string[][] {
  expect(text.startsWith('\uFEFF')).toBe(true);
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const body = text.slice(1);
  for (let i = 0; i < body.length; i += 1) {
    const c = body[i]!;
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || (c === '\r' && body[i + 1] === '\n')) {
      if (c === '\r') i += 1;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell || row.length) rows.push([...row, cell]);
  return rows;
}

beforeAll(async () => {
  t = await startTestApp();
  const owner = await signedInUser(t, 'history@acme.test');
  headers = { authorization: `Bearer ${owner.accessToken}`, 'x-waba-id': owner.business.waba_id };
  const found = await t.db.pool.query(
    `select w.id::int, p.id::int as phone_id from waba_accounts w join phone_numbers p on p.waba_account_id = w.id
      where w.waba_id = $1 limit 1`,
    [owner.business.waba_id],
  );
  wabaAccountId = found.rows[0].id;
  phoneId = found.rows[0].phone_id;
  const other = await signedInUser(t, 'history-stranger@acme.test');
  stranger = { authorization: `Bearer ${other.accessToken}`, 'x-waba-id': other.business.waba_id };
});

afterAll(async () => {
  await t.close();
});

describe('GET /broadcast/create/ date range, sort and cards', () => {
  it('filters the list and the cards by local days of the Scheduled time in the user’s time zone', async () => {
    // New York is UTC−4 on 2026-09-09: 23:30 UTC and 03:30 UTC next day are both the 9th there.
    await seedBroadcast({
      name: 'Zone late',
      scheduledAt: '2026-09-09T23:30:00Z',
      states: ['read', 'failed'],
    });
    await seedBroadcast({ name: 'Zone night', scheduledAt: '2026-09-10T03:30:00Z', states: ['delivered'] });
    await seedBroadcast({ name: 'Zone next', scheduledAt: '2026-09-10T04:30:00Z', states: ['sent'] });

    const ny = (
      await get('/broadcast/create/?search=zone&from=2026-09-09&to=2026-09-09&tz=America/New_York')
    ).json();
    expect(ny.results.map((r: { name: string }) => r.name)).toEqual(['Zone night', 'Zone late']);
    expect(ny.count).toBe(2);
    expect(ny.totals).toMatchObject({
      broadcasts: 2,
      recipients: 3,
      sent: 2,
      delivered: 2,
      read: 1,
      failed: 1,
    });

    const utc = (await get('/broadcast/create/?search=zone&from=2026-09-09&to=2026-09-09&tz=UTC')).json();
    expect(utc.results.map((r: { name: string }) => r.name)).toEqual(['Zone late']);
    expect(utc.totals).toMatchObject({ broadcasts: 1, recipients: 2, sent: 1, failed: 1 });

    // A lone `from` runs on; a lone `to` goes back to the first.
    const from = (await get('/broadcast/create/?search=zone&from=2026-09-10&tz=America/New_York')).json();
    expect(from.results.map((r: { name: string }) => r.name)).toEqual(['Zone next']);
    const to = (await get('/broadcast/create/?search=zone&to=2026-09-09&tz=Asia/Tokyo')).json();
    expect(to.results.map((r: { name: string }) => r.name)).toEqual([]);
  });

  it('sorts Latest and Oldest together with search and paging, the links keeping every parameter', async () => {
    for (let n = 1; n <= 12; n += 1) {
      await seedBroadcast({
        name: `Sorted ${String(n).padStart(2, '0')}`,
        scheduledAt: '2026-10-01T12:00:00Z',
        createdAt: `2026-10-01T00:${String(n).padStart(2, '0')}:00Z`,
      });
    }
    await seedBroadcast({ name: 'Unrelated', scheduledAt: '2026-10-01T12:00:00Z' });
    const names = (body: { results: Array<{ name: string }> }) => body.results.map((r) => r.name);

    const oldest = (await get('/broadcast/create/?search=sorted&sort=oldest&from=2026-10-01&tz=UTC')).json();
    expect(oldest.count).toBe(12);
    expect(names(oldest)[0]).toBe('Sorted 01');
    expect(oldest.next).toMatch(/\?page=2&search=sorted&sort=oldest&from=2026-10-01&tz=UTC$/);
    const second = (await get('/broadcast/create/?search=sorted&sort=oldest&page=2')).json();
    expect(names(second)).toEqual(['Sorted 11', 'Sorted 12']);
    const latest = (await get('/broadcast/create/?search=sorted&sort=latest&page=2')).json();
    expect(names(latest)).toEqual(['Sorted 02', 'Sorted 01']);
    expect(names((await get('/broadcast/create/?search=sorted')).json())[0]).toBe('Sorted 12');
  });

  it.each([
    ['from=2026-13-01', 'from'],
    ['from=2026-09-10&to=2026-09-09', 'to'],
    ['from=2026-09-10&tz=Mars/Olympus', 'tz'],
    ['sort=name', 'sort'],
  ])('answers 400 naming the field for %s', async (query, field) => {
    const answer = await get(`/broadcast/create/?${query}`);
    expect(answer.statusCode).toBe(400);
    expect(answer.json().errors[0].field).toBe(field);
    const csv = await get(`/broadcast/export.csv?${query}`);
    expect(csv.statusCode).toBe(400);
    expect(csv.json().errors[0].field).toBe(field);
  });

  it('does not count a scheduled broadcast’s recipients as unsent: they are counted apart', async () => {
    const day = 'from=2026-11-02&to=2026-11-02&tz=UTC';
    await seedBroadcast({
      name: 'Cards done',
      scheduledAt: '2026-11-02T09:00:00Z',
      states: ['read', 'delivered', 'sent', 'accepted', 'failed'],
    });
    await seedBroadcast({
      name: 'Cards later',
      scheduledAt: '2026-11-02T18:00:00Z',
      status: 'scheduled',
      total: 500,
    });
    const { totals } = (await get(`/broadcast/create/?${day}`)).json();
    expect(totals).toEqual({
      broadcasts: 2,
      recipients: 5,
      scheduled_recipients: 500,
      sent: 3,
      handed: 1,
      delivered: 2,
      read: 1,
      failed: 1,
      limited: 0,
      not_on_whatsapp: 0,
      expired: 0,
      skipped: 0,
      scheduled: 1,
      sending: 0,
    });
  });
});

describe('counters marked stale (decision 059)', () => {
  const stored = async (id: number) =>
    (await t.db.pool.query('select read_count, counts_stale from broadcasts where id = $1', [id])).rows[0];
  /** What a writer does: its rows move, then it marks the counters stale without recounting them. */
  const readTwo = async (id: number) => {
    await t.db.pool.query(
      `update broadcast_messages set state = 'read'
        where id in (select id from broadcast_messages where broadcast_id = $1 and state = 'delivered' order by id limit 2)`,
      [id],
    );
    await markCountsStale(t.db.pool, [id]);
  };

  it('are left as they were by the writer and recounted once by the next read of the history', async () => {
    const id = await seedBroadcast({
      name: 'Stale counters',
      scheduledAt: '2026-08-01T10:00:00Z',
      states: ['delivered', 'delivered', 'delivered', 'delivered'],
    });
    await readTwo(id);
    expect(await stored(id)).toEqual({ read_count: 0, counts_stale: true });
    const list = (await get('/broadcast/create/?search=Stale%20counters')).json();
    expect(list.results[0].read_percentage).toBe(50);
    expect(list.totals.read).toBe(2);
    expect(await stored(id)).toEqual({ read_count: 2, counts_stale: false });
  });

  it('are recounted by the history’s Export as well', async () => {
    const id = await seedBroadcast({
      name: 'Stale export',
      scheduledAt: '2026-08-02T10:00:00Z',
      states: ['delivered', 'delivered', 'delivered', 'delivered'],
    });
    await readTwo(id);
    const rows = parseCsv((await get('/broadcast/export.csv?search=Stale%20export')).body);
    expect(rows[1]![9]).toBe('50');
    expect(await stored(id)).toEqual({ read_count: 2, counts_stale: false });
  });
});

describe('pausing tells the truth', () => {
  it('says every message is with WhatsApp when a paused broadcast has nothing left to send', async () => {
    const handed = await seedBroadcast({
      name: 'Pause handed',
      scheduledAt: '2026-11-03T09:00:00Z',
      status: 'sending',
      states: ['accepted', 'accepted', 'held', 'sent', 'delivered'],
    });
    const holding = await seedBroadcast({
      name: 'Pause holding',
      scheduledAt: '2026-11-03T10:00:00Z',
      status: 'sending',
      states: ['accepted', 'queued'],
    });
    for (const id of [handed, holding]) {
      expect(
        (await t.app.inject({ method: 'POST', url: `/broadcast/${id}/pause/`, headers })).statusCode,
      ).toBe(200);
    }
    const list = (await get('/broadcast/create/?search=pause&sort=oldest')).json();
    expect(list.results).toMatchObject([
      {
        name: 'Pause handed',
        status: 'paused',
        all_handed: true,
        handed_percentage: 60,
        sent_percentage: 40,
      },
      {
        name: 'Pause holding',
        status: 'paused',
        all_handed: false,
        handed_percentage: 50,
        sent_percentage: 0,
      },
    ]);
    expect(list.totals).toMatchObject({ sent: 2, handed: 4 });

    // Nothing queued but part of the audience not yet written: the pause still holds those back.
    await t.db.pool.query(
      "update broadcast_messages set state = 'accepted' where broadcast_id = $1 and state = 'queued'",
      [holding],
    );
    await t.db.pool.query(
      `insert into broadcast_audiences (waba_account_id, broadcast_id, contact_ids, numbers, written)
       select waba_account_id, id, '{}', '{}', 0 from broadcasts where id = $1`,
      [holding],
    );
    const again = (await get('/broadcast/create/?search=pause+holding')).json();
    expect(again.results[0].all_handed).toBe(false);
  });
});

describe('GET /broadcast/export.csv', () => {
  it('downloads the filtered list in its order, with formula cells neutralised', async () => {
    await seedBroadcast({
      name: '=HYPERLINK("http://evil.test","Win")',
      scheduledAt: '2026-12-01T10:00:00Z',
    });
    await seedBroadcast({
      name: '+Plus, and "quotes"',
      scheduledAt: '2026-12-01T11:00:00Z',
      states: ['read'],
    });
    await seedBroadcast({ name: '@Sum', scheduledAt: '2026-12-02T11:00:00Z' });
    const answer = await get('/broadcast/export.csv?from=2026-12-01&to=2026-12-01&tz=UTC&sort=oldest');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['content-disposition']).toBe(
      'attachment; filename="herald-broadcasts-2026-12-01-to-2026-12-01.csv"',
    );
    const rows = parseCsv(answer.body);
    expect(rows[0]).toEqual([
      'id',
      'name',
      'template',
      'scheduled',
      'status',
      'recipients',
      'sent_percentage',
      'handed_percentage',
      'delivered_percentage',
      'read_percentage',
      'replied_percentage',
      'failed_percentage',
    ]);
    expect(rows.slice(1).map((r) => r[1])).toEqual([
      `'=HYPERLINK("http://evil.test","Win")`,
      `'+Plus, and "quotes"`,
    ]);
    expect(rows[2]!.slice(3)).toEqual([
      '2026-12-01T11:00:00.000Z',
      'completed',
      '1',
      '100',
      '0',
      '100',
      '100',
      '0',
      '0',
    ]);
    // The raw text quotes the cell that holds a comma and doubles its quotes.
    expect(answer.body).toContain(`"'+Plus, and ""quotes"""`);
  });

  it('answers only the caller’s account', async () => {
    const theirs = await get('/broadcast/export.csv', stranger);
    expect(theirs.statusCode).toBe(200);
    expect(parseCsv(theirs.body)).toHaveLength(1);
  });
});

describe('GET /broadcast/{id}/recipients/export.csv', () => {
  let id: number;
  beforeAll(async () => {
    id = await seedBroadcast({
      name: 'Report export',
      scheduledAt: '2026-12-05T10:00:00Z',
      states: ['read', 'delivered', 'failed', 'failed', 'sent'],
    });
    const names = ['=1+2', '-Minus', 'Tab', 'Comma, "Quoted"', 'Plain'];
    const messages = (
      await t.db.pool.query(
        'select id::int, whatsapp_number from broadcast_messages where broadcast_id = $1 order by id',
        [id],
      )
    ).rows;
    for (const [i, message] of messages.entries()) {
      const name = i === 2 ? '\tTab' : names[i]!;
      const contact = await t.db.pool.query(
        'insert into contacts (waba_account_id, name, whatsapp_number) values ($1, $2, $3) returning id',
        [wabaAccountId, name, message.whatsapp_number],
      );
      await t.db.pool.query('update broadcast_messages set contact_id = $2 where id = $1', [
        message.id,
        contact.rows[0].id,
      ]);
    }
    await t.db.pool.query(
      `update broadcast_messages set error_code = 131000, error_title = '@Something went wrong', failed_at = '2026-12-05T10:01:00Z'
        where broadcast_id = $1 and state = 'failed'`,
      [id],
    );
    const reply = await t.db.pool.query(
      `insert into inbound_messages (waba_account_id, wamid, from_number, kind, body, sent_at)
       values ($1, 'wamid.reply-export', $2, 'text', '=cmd|calc', '2026-12-05T11:00:00Z') returning id`,
      [wabaAccountId, messages[0].whatsapp_number],
    );
    await t.db.pool.query('update broadcast_messages set reply_id = $2 where id = $1', [
      messages[0].id,
      reply.rows[0].id,
    ]);
  });

  it('streams every recipient with a BOM, formula cells neutralised and proper quoting', async () => {
    const answer = await get(`/broadcast/${id}/recipients/export.csv`);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['content-disposition']).toBe(`attachment; filename="herald-report-${id}.csv"`);
    const rows = parseCsv(answer.body);
    expect(rows[0]).toEqual([
      'name',
      'whatsapp_number',
      'outcome',
      'error_code',
      'error_title',
      'last_update',
      'reply',
      'replied_at',
    ]);
    expect(rows).toHaveLength(6);
    const base = id * 1000;
    expect(rows[1]).toEqual([
      `'=1+2`,
      // A number in E.164 as it is (it imports back); the other cells that start like a formula neutralised.
      `+1555${String(base + 1).padStart(7, '0')}`,
      'read',
      '',
      '',
      '',
      `'=cmd|calc`,
      '2026-12-05T11:00:00Z',
    ]);
    expect(rows.slice(1).map((r) => r[0])).toEqual([
      `'=1+2`,
      `'-Minus`,
      `'\tTab`,
      'Comma, "Quoted"',
      'Plain',
    ]);
    expect(rows[3]!.slice(2, 6)).toEqual([
      'failed',
      '131000',
      `'@Something went wrong`,
      '2026-12-05T10:01:00Z',
    ]);
    expect(answer.body).toContain('"Comma, ""Quoted"""');
  });

  it('follows the report’s filter: an outcome, replied, or both', async () => {
    const failed = parseCsv((await get(`/broadcast/${id}/recipients/export.csv?outcome=failed`)).body);
    expect(failed.slice(1).map((r) => r[0])).toEqual([`'\tTab`, 'Comma, "Quoted"']);
    const replied = await get(`/broadcast/${id}/recipients/export.csv?replied=true`);
    expect(replied.headers['content-disposition']).toBe(
      `attachment; filename="herald-report-${id}-replied.csv"`,
    );
    expect(
      parseCsv(replied.body)
        .slice(1)
        .map((r) => r[0]),
    ).toEqual([`'=1+2`]);
    const notReplied = parseCsv(
      (await get(`/broadcast/${id}/recipients/export.csv?outcome=failed&replied=false`)).body,
    );
    expect(notReplied).toHaveLength(3);
    expect(
      parseCsv((await get(`/broadcast/${id}/recipients/export.csv?outcome=read&replied=false`)).body),
    ).toHaveLength(1);
  });

  it('reads and exports the non-readers: not_read is sent or delivered, not read', async () => {
    const report = (await get(`/broadcast/${id}/recipients/?outcome=not_read`)).json();
    expect(report.count).toBe(2);
    expect(report.results.map((r: { outcome: string }) => r.outcome)).toEqual(['delivered', 'sent']);
    const csv = parseCsv((await get(`/broadcast/${id}/recipients/export.csv?outcome=not_read`)).body);
    expect(csv.slice(1).map((r) => [r[0], r[2]])).toEqual([
      [`'-Minus`, 'delivered'],
      ['Plain', 'sent'],
    ]);
  });

  it('answers 400 naming the field for a bad filter and 404 for another account’s broadcast', async () => {
    const bad = await get(`/broadcast/${id}/recipients/export.csv?outcome=lost`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('outcome');
    const theirs = await get(`/broadcast/${id}/recipients/export.csv`, stranger);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().errors[0].field).toBe('id');
  });
});

describe('a scheduled broadcast’s report', () => {
  it('says who will receive it: its tags, percentage and recipients', async () => {
    const tags = [];
    for (const name of ['VIP', 'Gold']) {
      tags.push(
        (
          await t.db.pool.query(
            'insert into tags (waba_account_id, name) values ($1, $2) returning id::int',
            [wabaAccountId, name],
          )
        ).rows[0].id,
      );
    }
    const id = await seedBroadcast({
      name: 'Later',
      scheduledAt: '2027-01-01T09:00:00Z',
      status: 'scheduled',
      total: 42,
      audience: { type: 'filtered', tag_ids: tags, percentage: 55, leave_out_us: true },
    });
    const report = (await get(`/broadcast/${id}/recipients/`)).json();
    expect(report.broadcast).toEqual({
      id,
      name: 'Later',
      template_name: 'promo_template',
      status: 'scheduled',
      scheduled: '2027-01-01T09:00:00.000Z',
      audience: {
        type: 'filtered',
        tags: ['Gold', 'VIP'],
        percentage: 55,
        leave_out_us: true,
        from_broadcast_id: null,
        recipients: 42,
        segment: null,
      },
      spend_cap: null,
      link_destination: null,
    });
    expect(report.count).toBe(0);
  });
});
