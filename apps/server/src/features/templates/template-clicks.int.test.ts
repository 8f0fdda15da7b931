import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createApprovedTemplate,
  createBroadcast,
  DEFAULT_TEMPLATE,
} from '../../../../../test-support/business';
import { startSendingScene, type SendingScene } from '../../../../../test-support/sending-scene';
import { signedInBusiness } from '../../../../../test-support/signed-in-business';
import type { TestApp } from '../../../../../test-support/test-app';

/**
 * A template's clicks, two ways, against the sandbox over HTTP: WhatsApp's template analytics (`clicked`, every
 * tap on a URL button, read once Herald has confirmed the account's insights) and Herald's tracked links
 * (people, once each, in broadcasts of the template).
 */
const PUBLIC_URL = 'https://go.herald.test';
const DESTINATION = 'https://shop.example.com/winter';

let scene: SendingScene;
let t: TestApp;

const TRACKED_TEMPLATE = {
  ...DEFAULT_TEMPLATE,
  name: 'winter_sale',
  category: 'MARKETING',
  components: [
    { type: 'BODY', text: 'Hi {{1}}, our winter sale starts today.' },
    {
      type: 'BUTTONS',
      buttons: [{ type: 'URL', text: 'Shop now', url: `${PUBLIC_URL}/l/{{1}}`, example: ['abc123'] }],
    },
  ],
};

beforeAll(async () => {
  scene = await startSendingScene({ env: { PUBLIC_URL } });
  t = scene.t;
});
afterAll(() => scene?.close());

const business = (email: string, contacts: string[] = []) => signedInBusiness(t, email, contacts);

const clicksOf = (headers: Record<string, string>, id: number) =>
  t.app.inject({ method: 'GET', url: `/meta/templates/${id}/clicks/`, headers });

describe('a template’s clicks', () => {
  it('gives WhatsApp’s count of button taps beside the people Herald’s tracked links counted', async () => {
    const who = await business('template-clicks@herald.test', [
      '+447911123501',
      '+447911123502',
      '+447911123503',
    ]);
    const template = await createApprovedTemplate(t, who.headers, TRACKED_TEMPLATE);

    // Nothing sent yet: WhatsApp is asked (the account's insights confirmed first) and counts nothing.
    const before = await clicksOf(who.headers, template);
    expect(before.statusCode).toBe(200);
    expect(before.json()).toMatchObject({
      whatsapp: { total: 0, buttons: [] },
      whatsapp_unavailable: null,
      tracked: { people: 0, broadcasts: 0 },
    });
    const confirmed = await t.db.pool.query(
      'select template_insights_enabled_at from waba_accounts where id = $1',
      [who.accountId],
    );
    expect(confirmed.rows[0].template_insights_enabled_at).not.toBeNull();
    const from = new Date(before.json().from);
    expect(from.getUTCHours()).toBe(0);
    expect(Date.now() - from.getTime()).toBeLessThanOrEqual(90 * 86_400_000);
    expect(Date.now() - from.getTime()).toBeGreaterThan(89 * 86_400_000);

    const id = await createBroadcast(t, who.headers, {
      name: 'Winter',
      template_id: template,
      phone_number_id: who.phoneNumberId,
      recipients: { type: 'all', percentage: 100 },
      link_destination: DESTINATION,
    });
    await scene.until(
      async () =>
        (await t.db.pool.query('select status from broadcasts where id = $1', [id])).rows[0].status ===
        'completed',
      'the broadcast to complete',
    );
    const { rows } = await t.db.pool.query<{ wamid: string }>(
      'select wamid from broadcast_messages where broadcast_id = $1 order by whatsapp_number',
      [id],
    );
    // The first person taps twice, the second once; each browser opens Herald's link (the third never taps).
    for (const wamid of [rows[0]!.wamid, rows[0]!.wamid, rows[1]!.wamid]) {
      const tap = (await scene.sandbox(`/__sandbox/messages/${wamid}/clicks`, { component: 'cta' })) as {
        url: string;
      };
      const url = new URL(tap.url);
      const opened = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
      expect(opened.statusCode).toBe(302);
    }
    await scene.until(
      async () =>
        (
          await t.db.pool.query(
            'select count(*)::int as n from broadcast_messages where broadcast_id = $1 and clicked_at is not null',
            [id],
          )
        ).rows[0].n === 2,
      'both clicks to be written',
    );

    const after = await clicksOf(who.headers, template);
    expect(after.statusCode).toBe(200);
    // WhatsApp counts taps (3), Herald people (2).
    expect(after.json()).toMatchObject({
      whatsapp: { total: 3, buttons: [{ type: 'url_button', button: 'Shop now', count: 3 }] },
      whatsapp_unavailable: null,
      tracked: { people: 2, broadcasts: 1 },
    });
  });

  it('says why WhatsApp has no count for a template never submitted, and is the owner’s only', async () => {
    const who = await business('template-clicks-draft@herald.test', []);
    const other = await business('template-clicks-other@herald.test', []);
    await t.app.inject({
      method: 'PUT',
      url: '/settings/',
      headers: who.headers,
      payload: { require_template_approval: true },
    });
    const { id: draft } = await createDraft(who.headers);
    const answer = await clicksOf(who.headers, draft);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({
      whatsapp: null,
      whatsapp_unavailable: 'Not submitted to WhatsApp yet',
      tracked: { people: 0, broadcasts: 0 },
    });
    const foreign = await clicksOf(other.headers, draft);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().errors).toEqual([{ field: 'id', message: 'Template not found' }]);
  });
});

async function createDraft(headers: Record<string, string>): Promise<{ id: number }> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/meta/templates/',
    headers,
    payload: { ...DEFAULT_TEMPLATE, name: 'draft_offer', category: 'MARKETING' },
  });
  expect(response.statusCode).toBe(201);
  expect(response.json().status).toBe('DRAFT');
  return response.json();
}
