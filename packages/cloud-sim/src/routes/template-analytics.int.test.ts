import { beforeEach, describe, expect, it } from 'vitest';
import { call, signUpWithToken, type SignedUp } from '../../test/sandbox-client';
import { sandboxForFile } from '../../test/sandbox-for-file';

// Meta's template analytics over real HTTP: sent/delivered/read from the statuses the sandbox posts, `clicked`
// from the taps tests make (`POST /__sandbox/messages/{wamid}/clicks`, quick replies through `/__sandbox/inbound`).
const sim = sandboxForFile('template-analytics');
let account: SignedUp;
let saleId: string;
let quietId: string;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const DAY = 24 * 60 * 60;
const RECIPIENTS = ['447700900101', '447700900102', '447700900103'];

const buttons = [
  { type: 'QUICK_REPLY', text: 'Stop offers' },
  { type: 'URL', text: 'Shop now', url: 'https://shop.example.com/spring' },
];
const SALE = {
  name: 'spring_sale',
  language: 'en_US',
  category: 'MARKETING',
  components: [
    { type: 'BODY', text: 'The spring sale is on.' },
    { type: 'BUTTONS', buttons },
  ],
};
// The same buttons, its link taps not tracked.
const QUIET = { ...SALE, name: 'quiet_sale', cta_url_link_tracking_opted_out: true };

async function approved(template: Record<string, unknown>): Promise<string> {
  const created = await call(sim.url, `/v21.0/${account.waba_id}/message_templates`, {
    method: 'POST',
    token: account.token,
    json: template,
  });
  expect(created.status).toBe(200);
  await call(sim.url, `/__sandbox/templates/${created.body.id}/review`, {
    method: 'POST',
    json: { status: 'APPROVED' },
  });
  return created.body.id as string;
}

async function send(name: string, to: string): Promise<string> {
  const sent = await call(sim.url, `/v21.0/${account.phone_number_id}/messages`, {
    method: 'POST',
    token: account.token,
    json: {
      messaging_product: 'whatsapp',
      to,
      type: 'template',
      template: { name, language: { code: 'en_US' } },
    },
  });
  expect(sent.status).toBe(200);
  return sent.body.messages[0].id as string;
}

const click = async (wamid: string) => {
  const tapped = await call(sim.url, `/__sandbox/messages/${wamid}/clicks`, { method: 'POST', json: {} });
  expect(tapped.status).toBe(200);
};

const enableInsights = (acc: SignedUp = account) =>
  call(sim.url, `/v21.0/${acc.waba_id}?is_enabled_for_insights=true`, { method: 'POST', token: acc.token });

const edge = (query: Record<string, string>, acc: SignedUp = account) =>
  call(sim.url, `/v21.0/${acc.waba_id}/template_analytics?${new URLSearchParams(query)}`, {
    token: acc.token,
  });

const nowSeconds = () => Math.floor(Date.now() / 1000);
const today = () => Math.floor(nowSeconds() / DAY) * DAY;
const range = () => ({ start: String(today()), end: String(today() + DAY), granularity: 'DAILY' });

/** Today's data point of one template, once its statuses and taps are in. */
async function todayPoint(templateId: string, sent: number): Promise<Json> {
  const query = { ...range(), template_ids: `["${templateId}"]` };
  await expect
    .poll(async () => (await edge(query)).body.data?.[0].data_points[0].read, { timeout: 5000 })
    .toBe(sent);
  const { status, body } = await edge(query);
  expect(status).toBe(200);
  expect(body.data).toHaveLength(1);
  expect(body.data[0]).toMatchObject({ granularity: 'DAILY', product_type: 'cloud_api' });
  return body.data[0].data_points[0];
}

beforeEach(async () => {
  await call(sim.url, '/__sandbox/config', {
    method: 'POST',
    json: {
      status_delays_ms: { sent: 10, delivered: 20, read: 30 },
      delivered_rate: 1,
      read_rate: 1,
      duplicate_rate: 0,
      pair_rate_window_ms: 0,
    },
  });
  account = await signUpWithToken(sim.url, { business_name: 'Shop', phone_number: '15550002222' });
  saleId = await approved(SALE);
  quietId = await approved(QUIET);
});

describe('GET /{waba-id}/template_analytics', () => {
  it('counts sends and every URL-button tap (clicks, not people) by button text in today’s UTC bucket', async () => {
    const enabled = await enableInsights();
    expect(enabled.status).toBe(200);
    expect(enabled.body).toEqual({ id: account.waba_id });
    const [first, second] = await Promise.all(RECIPIENTS.map((to) => send('spring_sale', to)));
    await click(first!);
    await click(first!);
    await click(second!);

    const point = await todayPoint(saleId, 3);
    expect(point).toEqual({
      template_id: saleId,
      start: today(),
      end: today() + DAY,
      sent: 3,
      delivered: 3,
      read: 3,
      clicked: [{ type: 'url_button', button_content: 'Shop now', count: 3 }],
    });
  });

  it('counts a quick-reply tap answering the template message', async () => {
    await enableInsights();
    const wamid = await send('spring_sale', RECIPIENTS[0]!);
    const inbound = await call(sim.url, '/__sandbox/inbound', {
      method: 'POST',
      json: {
        phone_number_id: account.phone_number_id,
        from: RECIPIENTS[0],
        button_payload: 'stop',
        button_text: 'Stop offers',
        context_id: wamid,
      },
    });
    expect(inbound.status).toBe(200);
    const point = await todayPoint(saleId, 1);
    expect(point.clicked).toEqual([{ type: 'quick_reply_button', button_content: 'Stop offers', count: 1 }]);
  });

  it('counts no URL-button taps of a template with cta_url_link_tracking_opted_out, until it opts back in', async () => {
    await enableInsights();
    const node = await call(sim.url, `/v21.0/${quietId}`, { token: account.token });
    expect(node.body.cta_url_link_tracking_opted_out).toBe(true);
    await click(await send('quiet_sale', RECIPIENTS[0]!));
    expect((await todayPoint(quietId, 1)).clicked).toEqual([]);

    // The opt-out alone is edited without a new review: the template stays APPROVED.
    const edited = await call(sim.url, `/v21.0/${quietId}`, {
      method: 'POST',
      token: account.token,
      json: { cta_url_link_tracking_opted_out: false },
    });
    expect(edited.body).toEqual({ success: true });
    const after = await call(sim.url, `/v21.0/${quietId}`, { token: account.token });
    expect(after.body.status).toBe('APPROVED');
    expect(after.body.cta_url_link_tracking_opted_out).toBeUndefined();
    await click(await send('quiet_sale', RECIPIENTS[1]!));
    expect((await todayPoint(quietId, 2)).clicked).toEqual([
      { type: 'url_button', button_content: 'Shop now', count: 1 },
    ]);
  });

  it('reads the same through fields=template_analytics.…, beside is_enabled_for_insights', async () => {
    await enableInsights();
    await send('spring_sale', RECIPIENTS[0]!);
    const fields =
      `is_enabled_for_insights,template_analytics.start(${today()}).end(${today() + DAY}).granularity(DAILY)` +
      `.metric_types(["SENT"]).template_ids(["${saleId}"])`;
    const read = () =>
      call(sim.url, `/v21.0/${account.waba_id}?fields=${encodeURIComponent(fields)}`, {
        token: account.token,
      });
    await expect
      .poll(async () => (await read()).body.template_analytics?.data[0].data_points[0].sent)
      .toBe(1);
    const { body } = await read();
    expect(body.id).toBe(account.waba_id);
    expect(body.is_enabled_for_insights).toBe(true);
    // Only the metric asked for.
    expect(body.template_analytics.data[0].data_points).toEqual([
      { template_id: saleId, start: today(), end: today() + DAY, sent: 1 },
    ]);
  });

  it('answers a zero data point per template per day, start floored and end rounded up to 00:00 UTC', async () => {
    await enableInsights();
    const { status, body } = await edge({
      start: String(today() - DAY + 3600),
      end: String(today() + 60),
      granularity: 'DAILY',
      template_ids: `["${saleId}","${quietId}"]`,
      metric_types: '["SENT","CLICKED"]',
    });
    expect(status).toBe(200);
    expect(body.data[0].data_points).toEqual([
      { template_id: saleId, start: today() - DAY, end: today(), sent: 0, clicked: [] },
      { template_id: quietId, start: today() - DAY, end: today(), sent: 0, clicked: [] },
      { template_id: saleId, start: today(), end: today() + DAY, sent: 0, clicked: [] },
      { template_id: quietId, start: today(), end: today() + DAY, sent: 0, clicked: [] },
    ]);
  });
});

describe('template analytics errors', () => {
  it('refuses a WABA that has not enabled insights, and keeps them on once enabled', async () => {
    const before = await edge({ ...range(), template_ids: `["${saleId}"]` });
    expect(before.status).toBe(400);
    expect(before.body.error.code).toBe(100);
    expect(before.body.error.message).toContain('is_enabled_for_insights');
    const flag = await call(sim.url, `/v21.0/${account.waba_id}?fields=is_enabled_for_insights`, {
      token: account.token,
    });
    expect(flag.body).toEqual({ id: account.waba_id, is_enabled_for_insights: false });

    await enableInsights();
    const off = await call(sim.url, `/v21.0/${account.waba_id}?is_enabled_for_insights=false`, {
      method: 'POST',
      token: account.token,
    });
    expect(off.status).toBe(400);
    expect(off.body.error.message).toContain('is_enabled_for_insights');
  });

  it('answers 400 naming the parameter for bad filters', async () => {
    await enableInsights();
    const ids = `["${saleId}"]`;
    const eleven = `[${Array.from({ length: 11 }, (_, i) => `"${1000 + i}"`).join(',')}]`;
    const cases: Array<[Record<string, string>, string]> = [
      [{ ...range() }, 'template_ids'],
      [{ ...range(), template_ids: eleven }, 'template_ids'],
      [{ ...range(), template_ids: '["abc"]' }, 'template_ids'],
      [{ end: range().end, granularity: 'DAILY', template_ids: ids }, 'start'],
      [{ ...range(), start: 'yesterday', template_ids: ids }, 'start'],
      [{ start: range().start, granularity: 'DAILY', template_ids: ids }, 'end'],
      [{ ...range(), end: range().start, template_ids: ids }, 'end'],
      [{ ...range(), start: String(today() - 100 * DAY), template_ids: ids }, 'start'],
      [{ start: range().start, end: range().end, template_ids: ids }, 'granularity'],
      [{ ...range(), granularity: 'MONTHLY', template_ids: ids }, 'granularity'],
      [{ ...range(), template_ids: ids, metric_types: '["SENT","COST_PER_CLICK"]' }, 'metric_types'],
    ];
    for (const [query, name] of cases) {
      const { status, body } = await edge(query);
      expect({ query, status, code: body.error?.code }).toEqual({ query, status: 400, code: 100 });
      expect(body.error.message).toContain(name);
    }
  });

  it('answers a not-found Graph error for a template of another WABA', async () => {
    const other = await signUpWithToken(sim.url, { business_name: 'Other', phone_number: '15550003333' });
    await enableInsights(other);
    const { status, body } = await edge({ ...range(), template_ids: `["${saleId}"]` }, other);
    expect(status).toBe(404);
    expect(body.error.code).toBe(100);
    expect(body.error.message).toContain(saleId);
  });
});
