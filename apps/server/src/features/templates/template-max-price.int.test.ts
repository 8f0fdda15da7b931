import type { SandboxSnapshot } from '@herald/cloud-sim';
import { MAX_PRICE_EDIT_MESSAGES } from '@herald/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApprovedTemplate, createBroadcast } from '../../../../../test-support/business';
import { startSendingScene, type SendingScene } from '../../../../../test-support/sending-scene';
import { signedInBusiness } from '../../../../../test-support/signed-in-business';
import type { TestApp } from '../../../../../test-support/test-app';
import { templateMultipart } from './templates-test-helpers';

// A marketing template's maximum price (Meta's optimization_spec): sent to Meta on create and edit, kept and
// shown; only for an account onboarded to the Marketing Messages API and only on marketing templates; the cost
// estimate and the spend cap count it, and its messages go through /marketing_messages whatever the setting.

let scene: SendingScene;
let t: TestApp;

beforeAll(async () => {
  scene = await startSendingScene();
  t = scene.t;
});
afterAll(() => scene?.close());

const template = (name: string, overrides: Record<string, unknown> = {}) => ({
  name,
  language: 'en_US',
  category: 'MARKETING',
  components: [{ type: 'BODY', text: 'Spring prices are here.' }],
  ...overrides,
});

const business = (email: string, contacts: string[] = []) => signedInBusiness(t, email, contacts);

async function send(headers: Record<string, string>, method: 'POST' | 'PUT', url: string, payload: unknown) {
  const body = templateMultipart(payload);
  return t.app.inject({ method, url, headers: { ...headers, ...body.headers }, payload: body.payload });
}

/** The template as Meta keeps it. */
async function atMeta(metaId: string) {
  const state = (await (await fetch(`${t.sandboxUrl}/__sandbox/state`)).json()) as SandboxSnapshot;
  return state.templates.find((tpl: { id: string }) => tpl.id === metaId) as
    { optimization_spec?: { bid_amount: number; bid_strategy: string } } | undefined;
}

async function waitApproved(headers: Record<string, string>, id: number) {
  await scene.until(async () => {
    await t.app.webhooks.idle();
    const detail = await t.app.inject({ method: 'GET', url: `/meta/templates/${id}/`, headers });
    return detail.json().status === 'APPROVED';
  }, 'the edit to be reviewed');
}

describe('a marketing template’s maximum price', () => {
  it('is sent to Meta as optimization_spec on create, kept, shown, and changed by an edit without a new review', async () => {
    const who = await business('max-price@acme.test');
    const created = await send(
      who.headers,
      'POST',
      '/meta/templates/',
      template('capped_sale', { max_price_bid_amount: 2_500 }),
    );
    expect(created.statusCode).toBe(201);
    expect(created.json().max_price_bid_amount).toBe(2_500);
    const metaId = created.json().template_id as string;
    expect((await atMeta(metaId))?.optimization_spec).toEqual({
      bid_amount: 2_500,
      bid_strategy: 'LOWEST_COST_WITH_BID_CAP',
    });
    const id = created.json().id as number;
    await waitApproved(who.headers, id);
    const detail = (
      await t.app.inject({ method: 'GET', url: `/meta/templates/${id}/`, headers: who.headers })
    ).json();
    expect(detail.max_price_bid_amount).toBe(2_500);

    // Only the price changes: Meta keeps the template approved, and so does Herald.
    const raised = await send(
      who.headers,
      'PUT',
      `/meta/templates/${id}/`,
      template('capped_sale', { max_price_bid_amount: 6_000 }),
    );
    expect(raised.statusCode).toBe(200);
    expect(raised.json()).toMatchObject({ max_price_bid_amount: 6_000, status: 'APPROVED' });
    expect((await atMeta(metaId))?.optimization_spec?.bid_amount).toBe(6_000);

    // Meta removes no price from a marketing template, and adds none to a submitted one without it.
    const cleared = await send(who.headers, 'PUT', `/meta/templates/${id}/`, template('capped_sale'));
    expect(cleared.statusCode).toBe(400);
    expect(cleared.json().errors).toEqual([
      { field: 'max_price_bid_amount', message: MAX_PRICE_EDIT_MESSAGES.noRemove },
    ]);
    expect((await atMeta(metaId))?.optimization_spec?.bid_amount).toBe(6_000);
    const plain = await createApprovedTemplate(t, who.headers, template('plain_sale'));
    const added = await send(
      who.headers,
      'PUT',
      `/meta/templates/${plain}/`,
      template('plain_sale', { max_price_bid_amount: 2_500 }),
    );
    expect(added.statusCode).toBe(400);
    expect(added.json().errors).toEqual([
      { field: 'max_price_bid_amount', message: MAX_PRICE_EDIT_MESSAGES.noAdd },
    ]);
  });

  it('is refused, naming the field and storing nothing, on a utility template or for an account not onboarded', async () => {
    const who = await business('max-price-refused@acme.test');
    const utility = await send(
      who.headers,
      'POST',
      '/meta/templates/',
      template('utility_price', { category: 'UTILITY', max_price_bid_amount: 2_500 }),
    );
    expect(utility.statusCode).toBe(400);
    expect(utility.json().message).toMatch(
      /max_price_bid_amount: only a marketing template takes a maximum price/,
    );
    const fraction = await send(
      who.headers,
      'POST',
      '/meta/templates/',
      template('fraction_price', { max_price_bid_amount: 2.5 }),
    );
    expect(fraction.statusCode).toBe(400);
    expect(fraction.json().message).toMatch(/max_price_bid_amount: must be a whole number of US cents/);

    await scene.sandbox('/__sandbox/config', { mm_api_terms_at_signup: false });
    const later = await business('max-price-not-onboarded@acme.test');
    await scene.sandbox('/__sandbox/config', { mm_api_terms_at_signup: true });
    const refused = await send(
      later.headers,
      'POST',
      '/meta/templates/',
      template('early_price', { max_price_bid_amount: 2_500 }),
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual([
      { field: 'max_price_bid_amount', message: MAX_PRICE_EDIT_MESSAGES.needsMmApi },
    ]);
    for (const headers of [who.headers, later.headers]) {
      const list = (await t.app.inject({ method: 'GET', url: '/meta/templates/', headers })).json();
      expect(list.count).toBe(0);
    }
  });

  it('is what the estimate and the spend cap count per message, and its messages go through /marketing_messages even when the account chose /messages', async () => {
    const who = await business('max-price-send@acme.test', [
      '+447700900401',
      '+447700900402',
      '+917700900403',
    ]);
    const templateId = await createApprovedTemplate(
      t,
      who.headers,
      template('priced_offer', { max_price_bid_amount: 2_500 }),
    );
    const estimate = await t.app.inject({
      method: 'POST',
      url: '/pricing/estimate/',
      headers: who.headers,
      payload: {
        template_id: templateId,
        phone_number_id: who.phoneNumberId,
        recipients: { type: 'all', percentage: 100 },
      },
    });
    expect(estimate.statusCode).toBe(200);
    // Meta charges the max price or less for every delivery, whatever the market: 3 × $0.025.
    expect(estimate.json()).toMatchObject({ recipients: 3, total: 0.075, max_price: 0.025 });

    const saved = await t.app.inject({
      method: 'PUT',
      url: '/settings/',
      headers: who.headers,
      payload: { marketing_via_mm_api: false },
    });
    expect(saved.statusCode).toBe(200);
    // A cap of $0.05 lets two messages at $0.025 go and pauses before the third (at the rate card, one UK
    // message alone, $0.0529, would pass it).
    const id = await createBroadcast(t, who.headers, {
      name: 'Priced offer',
      template_id: templateId,
      phone_number_id: who.phoneNumberId,
      recipients: { type: 'all', percentage: 100 },
      spend_cap: 0.05,
    });
    await scene.until(async () => {
      const { rows } = await t.db.pool.query('select status from broadcasts where id = $1', [id]);
      return rows[0].status === 'paused';
    }, 'the broadcast to pause at its cap');
    const { rows } = await t.db.pool.query(
      'select status_reason, spend_committed::text as committed from broadcasts where id = $1',
      [id],
    );
    expect(Number(rows[0].committed)).toBe(0.05);
    expect(rows[0].status_reason).toBe('Spend cap reached: $0.05 of $0.05');
    const log = (
      (await scene.sandbox(`/__sandbox/messages?phone_number_id=${who.phoneNumberId}`)) as {
        data: Array<{ endpoint: string }>;
      }
    ).data;
    expect(log.map((m) => m.endpoint)).toEqual(['marketing_messages', 'marketing_messages']);
  });
});
