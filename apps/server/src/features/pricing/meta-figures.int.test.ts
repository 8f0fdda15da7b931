import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../test-support/test-app';
import { SecretBox } from '../../security/secret-box';
import { signedInUser } from '../auth/auth-test-helpers';

// Meta's own figure for a broadcast, read over real HTTP from the sandbox's pricing_analytics,
// which bills what the sandbox itself delivered (decision 053).
let t: TestApp;
let headers: Record<string, string>;
let accountId: number;
let phoneId: number;
let phoneNumberId: string;
let metaWabaId: string;
let token: string;

const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
  t.db.pool.query(sql, params).then((r) => r.rows as T[]);

async function sandbox(path: string, init: { method?: string; json?: unknown; token?: string } = {}) {
  const response = await fetch(`${t.sandboxUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      'content-type': 'application/json',
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Sends the approved template straight to the sandbox, as Herald's engine does for a broadcast. */
async function sendAtMeta(to: string) {
  const sent = await sandbox(`/v21.0/${phoneNumberId}/messages`, {
    method: 'POST',
    token,
    json: {
      messaging_product: 'whatsapp',
      to,
      type: 'template',
      template: { name: 'world_offer', language: { code: 'en_US' } },
    },
  });
  expect(sent.status).toBe(200);
}

/** Herald's rows of a broadcast whose messages were all delivered, first accepted `acceptedAgo` before now. */
async function deliveredBroadcast(
  numbers: string[],
  { acceptedAgo = '1 minute', account = accountId, phone = phoneId, status = 'completed' } = {},
): Promise<number> {
  const id = (
    await q<{ id: number }>(
      `insert into broadcasts (waba_account_id, phone_number_id, template_name, template_language, name, audience,
                               scheduled_at, status, total_recipients, started_at, completed_at)
       values ($1, $2, 'world_offer', 'en_US', 'World offer', '{}', now(), $3, $4,
               now() - $5::interval, case when $3 = 'completed' then now() end)
       returning id::int`,
      [account, phone, status, numbers.length, acceptedAgo],
    )
  )[0]!.id;
  await q(
    `insert into broadcast_messages (waba_account_id, broadcast_id, whatsapp_number, state, accepted_at, delivered_at,
                                     pricing_billable, pricing_model, pricing_category, pricing_type, priced_at)
     select (select waba_account_id from broadcasts where id = $1), $1::bigint, n, 'delivered', now() - $3::interval,
            case when $3 = '1 minute' then now() else now() - $3::interval + interval '1 second' end,
            true, 'PMP', 'marketing', 'regular', now() - $3::interval
       from unnest($2::text[]) n`,
    [id, numbers, acceptedAgo],
  );
  return id;
}

const figure = (id: number | string, as = headers) =>
  t.app.inject({ method: 'GET', url: `/pricing/broadcasts/${id}/meta/`, headers: as });

beforeAll(async () => {
  t = await startTestApp();
  const owner = await signedInUser(t, 'meta-figures@example.com', 'Meta Figures Shop');
  metaWabaId = owner.business.waba_id;
  phoneNumberId = owner.business.phone_number_id;
  headers = { authorization: `Bearer ${owner.accessToken}`, 'x-waba-id': metaWabaId };
  const account = (
    await q<{ id: number; business_token_encrypted: string }>(
      'select id::int, business_token_encrypted from waba_accounts where waba_id = $1',
      [metaWabaId],
    )
  )[0]!;
  accountId = account.id;
  token = new SecretBox(t.config.ENCRYPTION_KEY!).open(account.business_token_encrypted);
  phoneId = (
    await q<{ id: number }>('select id::int from phone_numbers where waba_account_id = $1', [accountId])
  )[0]!.id;
  await sandbox('/__sandbox/config', {
    method: 'POST',
    json: { status_delays_ms: { sent: 10, delivered: 20, read: 30 }, us_marketing_rule: false },
  });
  const created = await sandbox(`/v21.0/${metaWabaId}/message_templates`, {
    method: 'POST',
    token,
    json: {
      name: 'world_offer',
      language: 'en_US',
      category: 'MARKETING',
      components: [{ type: 'BODY', text: 'An offer for you.' }],
    },
  });
  await sandbox(`/__sandbox/templates/${String(created.body.id)}/review`, {
    method: 'POST',
    json: { status: 'APPROVED' },
  });
});

afterAll(async () => {
  await t?.close();
});

describe('GET /pricing/broadcasts/:id/meta/', () => {
  let first: number;
  const world = ['919812345601', '447911123401', '16285552001'];

  it('answers Meta’s billable volume and cost for the broadcast’s number over its time range', async () => {
    for (const to of world) await sendAtMeta(to);
    // The sandbox bills on delivery; Herald's rows are written once it has delivered them all.
    await expect
      .poll(async () => (await sandbox('/__sandbox/state')).body.messaging)
      .toMatchObject({ pending_statuses: 0 });
    first = await deliveredBroadcast(world.map((n) => `+${n}`));
    const response = await figure(first);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    // India 0.0107 + United Kingdom 0.0529 + North America 0.025, at Meta's marketing rates.
    expect(body).toMatchObject({
      broadcast_id: first,
      currency: 'USD',
      volume: 3,
      still_sending: false,
      delivered_billable: 3,
      overlapping: { broadcasts: 0, messages: 0 },
    });
    expect(body.cost).toBeCloseTo(0.0886, 6);
    expect(body.range.granularity).toBe('HALF_HOUR');
    expect(Date.parse(body.range.start) % 1_800_000).toBe(0);
    expect(Date.parse(body.range.end)).toBeGreaterThan(Date.now() - 1000);
  });

  it('says what else Herald sent from the number in the range (Meta counts it too)', async () => {
    await sendAtMeta('919812345602');
    await expect
      .poll(async () => (await sandbox('/__sandbox/state')).body.messaging)
      .toMatchObject({ pending_statuses: 0 });
    const second = await deliveredBroadcast(['+919812345602']);
    const body = (await figure(first)).json();
    expect(body.volume).toBe(4);
    expect(body.delivered_billable).toBe(3);
    expect(body.overlapping).toEqual({ broadcasts: 1, messages: 1 });
    expect((await figure(second)).json().overlapping).toEqual({ broadcasts: 1, messages: 3 });
  });

  it('answers 404 naming the id for another account’s broadcast, 400 for a bad id', async () => {
    const other = await signedInUser(t, 'other-figures@example.com', 'Other Shop');
    const otherAccount = (
      await q<{ id: number }>('select id::int from waba_accounts where waba_id = $1', [
        other.business.waba_id,
      ])
    )[0]!.id;
    const otherPhone = (
      await q<{ id: number }>('select id::int from phone_numbers where waba_account_id = $1', [otherAccount])
    )[0]!.id;
    const theirs = await deliveredBroadcast(['+447911123409'], { account: otherAccount, phone: otherPhone });
    const response = await figure(theirs);
    expect(response.statusCode).toBe(404);
    expect(response.json().errors).toEqual([{ field: 'id', message: 'No such broadcast in this account' }]);
    const bad = await figure('abc');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('id');
  });

  it('asks Meta nothing before anything was sent, and answers Meta’s refusal as 502 with its message', async () => {
    const unsent = (
      await q<{ id: number }>(
        `insert into broadcasts (waba_account_id, phone_number_id, template_name, template_language, name,
                                 audience, scheduled_at, status)
         values ($1, $2, 'world_offer', 'en_US', 'Later', '{}', now() + interval '1 day', 'scheduled')
         returning id::int`,
        [accountId, phoneId],
      )
    )[0]!.id;
    const notYet = await figure(unsent);
    expect(notYet.statusCode).toBe(200);
    expect(notYet.json()).toMatchObject({ volume: null, cost: null, range: null, still_sending: true });

    // Meta keeps pricing analytics for a year: a broadcast of 400 days ago is refused.
    const old = await deliveredBroadcast(['+919812345603'], { acceptedAgo: '400 days' });
    const refused = await figure(old);
    expect(refused.statusCode).toBe(502);
    expect(refused.json().detail).toBe(
      'Meta refused the pricing analytics request: (#100) Invalid parameter: start must be within the last year ' +
        '(the lookback window of pricing analytics)',
    );
  });
});
