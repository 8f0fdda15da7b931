import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../test-support/test-app';
import { signBody } from './signature';

let t: TestApp;
const seen: unknown[] = [];
/** Values of `n` whose handler fails on its first attempt only (a passing fault: a lock timeout, a lost connection). */
const failOnce = new Set<number>();

beforeAll(async () => {
  t = await startTestApp();
  t.app.webhooks.on('test_field', async (_client, change) => {
    const value = change.value as { fail?: boolean; n?: number };
    if (value.fail) throw new Error('handler refused');
    if (value.n !== undefined && failOnce.delete(value.n)) throw new Error('passing fault');
    seen.push(change);
  });
});
afterAll(() => t.close());

const payload = (value: unknown) =>
  JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [{ id: '123', changes: [{ field: 'test_field', value }] }],
  });

function post(body: string, signature: string | undefined) {
  return t.app.inject({
    method: 'POST',
    url: '/webhooks/whatsapp',
    headers: {
      'content-type': 'application/json',
      ...(signature ? { 'x-hub-signature-256': signature } : {}),
    },
    payload: body,
  });
}

const storedCount = async () =>
  Number((await t.db.pool.query('select count(*) from webhook_events')).rows[0].count);

describe('GET /webhooks/whatsapp (verification)', () => {
  it('echoes the challenge for the right verify token and refuses others', async () => {
    const ok = await t.app.inject({
      method: 'GET',
      url: `/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=${t.config.WEBHOOK_VERIFY_TOKEN}&hub.challenge=1158201444`,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('1158201444');
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=guess&hub.challenge=1',
    });
    expect(wrong.statusCode).toBe(403);
  });
});

describe('POST /webhooks/whatsapp', () => {
  it('stores a correctly signed event, answers 200 and applies it through the handler', async () => {
    const body = payload({ n: 1 });
    const response = await post(body, signBody(t.config.META_APP_SECRET, body));
    expect(response.statusCode).toBe(200);
    await t.app.webhooks.idle();
    expect(seen).toContainEqual({ wabaId: '123', field: 'test_field', value: { n: 1 } });
    const { rows } = await t.db.pool.query(
      'select processed_at from webhook_events order by id desc limit 1',
    );
    expect(rows[0].processed_at).not.toBeNull();
  });

  it('refuses a bad or missing signature with 401 and stores nothing', async () => {
    const before = await storedCount();
    const body = payload({ n: 2 });
    expect((await post(body, signBody('not-the-secret', body))).statusCode).toBe(401);
    expect((await post(body, undefined)).statusCode).toBe(401);
    // A signature of other bytes: re-serialising the JSON would break it, so the raw body is what counts.
    expect((await post(`${body} `, signBody(t.config.META_APP_SECRET, body))).statusCode).toBe(401);
    expect(await storedCount()).toBe(before);
  });

  it('answers 400 for a signed body that is not JSON, storing nothing', async () => {
    const before = await storedCount();
    const response = await post('{not json', signBody(t.config.META_APP_SECRET, '{not json'));
    expect(response.statusCode).toBe(400);
    expect(await storedCount()).toBe(before);
  });

  it('answers 400 naming body for a signed body nested deeper than jsonb can parse, storing nothing', async () => {
    const before = await storedCount();
    // 200,000 nested arrays: valid JSON under the 5 MB limit that overflows Postgres's jsonb parser (54001).
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    const response = await post(deep, signBody(t.config.META_APP_SECRET, deep));
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].field).toMatch(/^body/);
    expect(response.json().detail).toMatch(/nested too deeply/);
    expect(await storedCount()).toBe(before);
  });

  it('keeps an event whose handler fails, with its error, without blocking the others', async () => {
    const bad = payload({ fail: true });
    const good = payload({ n: 3 });
    await post(bad, signBody(t.config.META_APP_SECRET, bad));
    await post(good, signBody(t.config.META_APP_SECRET, good));
    await t.app.webhooks.idle();
    expect(seen).toContainEqual(expect.objectContaining({ value: { n: 3 } }));
    const { rows } = await t.db.pool.query(
      'select processed_at, last_error from webhook_events where payload @> \'{"entry":[{"changes":[{"value":{"fail":true}}]}]}\'',
    );
    expect(rows[0]).toEqual({ processed_at: null, last_error: 'handler refused' });
  });

  it('applies an event whose handler failed once within seconds, without another webhook arriving', async () => {
    failOnce.add(7);
    const body = payload({ n: 7, failOnce: true });
    await post(body, signBody(t.config.META_APP_SECRET, body));
    await t.app.webhooks.idle();
    expect(seen).not.toContainEqual(expect.objectContaining({ value: { n: 7, failOnce: true } }));
    // The processor's backoff (1 s first) drains again by itself; nothing else schedules a drain here.
    await expect
      .poll(() => seen.some((change) => (change as { value: { n?: number } }).value.n === 7), {
        timeout: 5_000,
        interval: 100,
      })
      .toBe(true);
    const { rows } = await t.db.pool.query(
      `select processed_at is not null as processed, attempts from webhook_events
        where payload @> '{"entry":[{"changes":[{"value":{"n":7}}]}]}'`,
    );
    expect(rows[0]).toEqual({ processed: true, attempts: 2 });
  });

  it('stores every one of many concurrent webhooks exactly once, and a body jsonb refuses fails alone', async () => {
    const before = await storedCount();
    const bodies = Array.from({ length: 60 }, (_, i) => payload({ burst: i }));
    // Valid JSON, but a \u0000 escape cannot be held by jsonb: it must not take the bodies beside it down.
    const poison = payload({ text: 'nul \u0000 here' });
    const responses = await Promise.all(
      [...bodies.slice(0, 30), poison, ...bodies.slice(30)].map((body) =>
        post(body, signBody(t.config.META_APP_SECRET, body)),
      ),
    );
    expect(responses.map((r) => r.statusCode).filter((code) => code !== 200)).toEqual([400]);
    expect(responses[30]!.json().errors[0].field).toBe('body.entry.0.changes.0.value.text');
    expect(await storedCount()).toBe(before + 60);
    const { rows } = await t.db.pool.query(
      `select count(distinct payload->'entry'->0->'changes'->0->'value'->>'burst')::int as n
         from webhook_events where payload->'entry'->0->'changes'->0->'value' ? 'burst'`,
    );
    expect(rows[0].n).toBe(60);
  });
});

describe('POST /webhooks/whatsapp with replays (Meta retries identical bodies)', () => {
  const applied = (key: string) =>
    seen.filter((change) => (change as { value: { replay?: string } }).value.replay === key).length;

  /** A fixed-seed shuffle, so a failure replays the same order. */
  function shuffled<T>(items: T[], seed = 13): T[] {
    const out = [...items];
    let state = seed;
    for (let i = out.length - 1; i > 0; i--) {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      const j = state % (i + 1);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }

  it('applies each of 50 bodies sent 3 times each, shuffled and concurrent, exactly once; all answered 200', async () => {
    const before = await storedCount();
    const bodies = Array.from({ length: 50 }, (_, i) => payload({ replay: `burst-${i}` }));
    const deliveries = shuffled(bodies.flatMap((body) => [body, body, body]));
    const responses = await Promise.all(
      deliveries.map((body) => post(body, signBody(t.config.META_APP_SECRET, body))),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(deliveries.map(() => 200));
    await t.app.webhooks.idle();
    expect(await storedCount()).toBe(before + 50);
    expect(bodies.map((_, i) => applied(`burst-${i}`))).toEqual(bodies.map(() => 1));
  });

  it('ignores a replay that arrives after the first copy was applied, in another spacing of the same JSON', async () => {
    const body = payload({ replay: 'late' });
    expect((await post(body, signBody(t.config.META_APP_SECRET, body))).statusCode).toBe(200);
    await t.app.webhooks.idle();
    const before = await storedCount();
    // Same JSON, other bytes: its own valid signature, but the same event.
    const respaced = JSON.stringify(JSON.parse(body), null, 2);
    for (const again of [body, respaced]) {
      const response = await post(again, signBody(t.config.META_APP_SECRET, again));
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ received: true });
    }
    await t.app.webhooks.idle();
    expect(await storedCount()).toBe(before);
    expect(applied('late')).toBe(1);
  });

  it('still stores and applies a body that differs by one value', async () => {
    const first = payload({ replay: 'near', n: 1 });
    const second = payload({ replay: 'near', n: 2 });
    for (const body of [first, second]) await post(body, signBody(t.config.META_APP_SECRET, body));
    await t.app.webhooks.idle();
    expect(applied('near')).toBe(2);
  });
});
