import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createApprovedTemplate,
  createBroadcast,
  DEFAULT_TEMPLATE,
} from '../../../../../test-support/business';
import { startSendingScene, type SendingScene } from '../../../../../test-support/sending-scene';
import type { TestApp } from '../../../../../test-support/test-app';
import type { SecretBox } from '../../security/secret-box';
import { signedInUser } from '../auth/auth-test-helpers';
import { linkToken } from '../../security/link-token';

/**
 * Who clicked, against the sandbox over HTTP: a marketing broadcast whose template's URL button is Herald's
 * tracked link gives each recipient their own link; the sandbox's click control plays the person tapping it
 * (Meta's click webhook and the URL their browser opens, with Meta's click_id), the test opens that URL on
 * Herald as the browser would. Each recipient counts once, at their first click, in the report, its filter,
 * the history, the Dashboard and a retarget to those who did not click.
 */
const PUBLIC_URL = 'https://go.herald.test';
const DESTINATION = 'https://shop.example.com/autumn?utm_source=whatsapp';

let scene: SendingScene;
let t: TestApp;
let secrets: SecretBox;
const sandbox = (path: string, body?: object) => scene.sandbox(path, body);
const until = (check: () => Promise<boolean>, what: string) => scene.until(check, what);

const TRACKED_TEMPLATE = {
  ...DEFAULT_TEMPLATE,
  name: 'autumn_sale',
  category: 'MARKETING',
  components: [
    { type: 'BODY', text: 'Hi {{1}}, our autumn sale starts today.' },
    {
      type: 'BUTTONS',
      buttons: [{ type: 'URL', text: 'Shop now', url: `${PUBLIC_URL}/l/{{1}}`, example: ['abc123'] }],
    },
  ],
};

let who: {
  headers: Record<string, string>;
  accountId: number;
  phoneNumberId: string;
};
let tracked: number;
let plain: number;

/** Opens a URL on Herald as a browser would (only its path and query: the test app is not on PUBLIC_URL). */
function open(url: string, headers: Record<string, string> = {}) {
  const parsed = new URL(url);
  expect(parsed.origin).toBe(PUBLIC_URL);
  return t.app.inject({ method: 'GET', url: `${parsed.pathname}${parsed.search}`, headers });
}

async function messagesOf(broadcastId: number) {
  return (
    await t.db.pool.query<{
      id: number;
      whatsapp_number: string;
      wamid: string;
      clicked_at: Date | null;
      click_id: string | null;
      click_component: string | null;
    }>(
      `select id::int, whatsapp_number, wamid, clicked_at, click_id, click_component from broadcast_messages
        where broadcast_id = $1 order by whatsapp_number`,
      [broadcastId],
    )
  ).rows;
}

async function completed(id: number, what: string) {
  await until(
    async () =>
      (await t.db.pool.query('select status from broadcasts where id = $1', [id])).rows[0].status ===
      'completed',
    what,
  );
}

beforeAll(async () => {
  scene = await startSendingScene({ env: { PUBLIC_URL } });
  t = scene.t;
  secrets = scene.secrets;

  const owner = await signedInUser(t, 'clicks@herald.test');
  const headers = { authorization: `Bearer ${owner.accessToken}`, 'x-waba-id': owner.business.waba_id };
  const accountId = (
    await t.db.pool.query('select id::int from waba_accounts where waba_id = $1', [owner.business.waba_id])
  ).rows[0].id as number;
  for (const [i, number] of ['+447911123401', '+447911123402', '+447911123403'].entries()) {
    await t.db.pool.query(
      'insert into contacts (waba_account_id, name, whatsapp_number) values ($1, $2, $3)',
      [accountId, `Person ${i + 1}`, number],
    );
  }
  who = { headers, accountId, phoneNumberId: owner.business.phone_number_id };
  tracked = await createApprovedTemplate(t, headers, TRACKED_TEMPLATE);
  plain = await createApprovedTemplate(t, headers, { ...DEFAULT_TEMPLATE, name: 'plain_note' });
});

afterAll(() => scene?.close());

const broadcastPayload = (name: string, template: number, extra: object = {}) => ({
  name,
  template_id: template,
  phone_number_id: who.phoneNumberId,
  recipients: { type: 'all', percentage: 100 },
  ...extra,
});

describe('tracked links', () => {
  it('tells the web what a tracked button holds, and checks the link destination when a broadcast is created', async () => {
    const links = await t.app.inject({ method: 'GET', url: '/broadcast/links/', headers: who.headers });
    expect(links.json()).toEqual({
      tracked_link_prefix: `${PUBLIC_URL}/l/`,
      tracked_button_url: `${PUBLIC_URL}/l/{{1}}`,
    });
    const create = (payload: object) =>
      t.app.inject({ method: 'POST', url: '/broadcast/create/', headers: who.headers, payload });
    const missing = await create(broadcastPayload('No destination', tracked));
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ errors: [{ field: 'link_destination' }] });
    const notUrl = await create(
      broadcastPayload('Bad', tracked, { link_destination: 'javascript:alert(1)' }),
    );
    expect(notUrl.statusCode).toBe(400);
    expect(JSON.stringify(notUrl.json())).toContain('link_destination');
    const unused = await create(broadcastPayload('Unused', plain, { link_destination: DESTINATION }));
    expect(unused.statusCode).toBe(400);
    expect(unused.json()).toMatchObject({ errors: [{ field: 'link_destination' }] });
    const { rows } = await t.db.pool.query(
      'select count(*)::int as n from broadcasts where waba_account_id = $1',
      [who.accountId],
    );
    expect(rows[0].n).toBe(0);

    // A test send's tracked button opens Herald's page about tracked links: no recipient, nothing counted.
    const test = await t.app.inject({
      method: 'POST',
      url: '/broadcast/test/',
      headers: who.headers,
      payload: { template_id: tracked, phone_number_id: who.phoneNumberId, to: '+447911123499' },
    });
    expect(test.json()).toMatchObject({ accepted: true });
    const sent = (
      (await sandbox(`/__sandbox/messages?phone_number_id=${who.phoneNumberId}&to=447911123499`)) as {
        data: Array<{ parameters: unknown }>;
      }
    ).data;
    expect(JSON.stringify(sent[0]!.parameters)).toContain('"test"');
    const testPage = await t.app.inject({ method: 'GET', url: '/l/test' });
    expect(testPage.statusCode).toBe(200);
    expect(testPage.body).toContain('This message was a test send.');
  });

  it('counts each recipient once at their first click, from Meta’s webhook and Herald’s redirect alike, through the report, history, Dashboard and a retarget', async () => {
    const id = await createBroadcast(
      t,
      who.headers,
      broadcastPayload('Autumn', tracked, { link_destination: DESTINATION }),
    );
    await completed(id, 'the tracked broadcast to complete');
    const [first, second, third] = await messagesOf(id);

    // Each recipient's button carries their own signed token (what the sandbox was asked to send).
    const log = (
      (await sandbox(`/__sandbox/messages?phone_number_id=${who.phoneNumberId}`)) as {
        data: Array<{ to: string; endpoint: string; parameters: unknown }>;
      }
    ).data.filter((m) => m.to === '447911123401');
    expect(log[0]!.endpoint).toBe('marketing_messages');
    expect(JSON.stringify(log[0]!.parameters)).toContain(linkToken(secrets, who.accountId, first!.id));

    // The first person taps the button twice: Meta reports two clicks (webhook, click_id on the URL); the
    // browser opens Herald's link twice; one click counts, the first, with Meta's click_id and component.
    const tap = async (wamid: string) =>
      (await sandbox(`/__sandbox/messages/${wamid}/clicks`, { component: 'cta' })) as {
        url: string;
        click_id: string | null;
        webhook: boolean;
      };
    const click1 = await tap(first!.wamid);
    expect(click1.webhook).toBe(true);
    expect(click1.url).toContain(`/l/${linkToken(secrets, who.accountId, first!.id)}?click_id=`);
    const opened = await open(click1.url);
    expect(opened.statusCode).toBe(302);
    expect(opened.headers.location).toBe(DESTINATION);
    expect(opened.headers['referrer-policy']).toBe('no-referrer');
    const firstAt = (await messagesOf(id))[0]!.clicked_at;
    expect(firstAt).not.toBeNull();
    const click2 = await tap(first!.wamid);
    expect((await open(click2.url)).statusCode).toBe(302);
    // Both of Meta's click webhooks stored: the sandbox posts each a moment after its tap answers, so the first
    // one's effect alone does not say the second has arrived.
    const storedClicks = async () =>
      (
        await t.db.pool.query('select count(*)::int as n from meta_link_clicks where waba_account_id = $1', [
          who.accountId,
        ])
      ).rows[0].n as number;
    await until(async () => (await storedClicks()) === 2, 'Meta’s two click webhooks');
    const afterTwo = (await messagesOf(id))[0]!;
    expect(afterTwo.click_component).toBe('cta');
    expect(afterTwo.clicked_at).toEqual(firstAt);
    expect(afterTwo.click_id).toBe(click1.click_id);

    // The second person's browser opens the link without Meta's click_id (a link shared on): counted once too.
    const secondUrl = `${PUBLIC_URL}/l/${linkToken(secrets, who.accountId, second!.id)}`;
    expect((await open(secondUrl)).statusCode).toBe(302);
    expect((await open(secondUrl)).statusCode).toBe(302);
    // Previews and prefetches are answered but not counted: the third person has not clicked.
    const thirdUrl = `${PUBLIC_URL}/l/${linkToken(secrets, who.accountId, third!.id)}`;
    expect((await open(thirdUrl, { 'user-agent': 'facebookexternalhit/1.1' })).statusCode).toBe(302);
    expect((await open(thirdUrl, { 'user-agent': 'WhatsApp/2.24.1.6 A' })).statusCode).toBe(302);
    expect((await open(thirdUrl, { 'sec-purpose': 'prefetch' })).statusCode).toBe(302);
    const head = await t.app.inject({ method: 'HEAD', url: new URL(thirdUrl).pathname });
    expect(head.statusCode).toBe(302);
    const clickedRows = (await messagesOf(id)).map((m) => m.clicked_at !== null);
    expect(clickedRows).toEqual([true, true, false]);

    // The report: the Clicked count and rate, the filter both ways, each recipient's first click.
    const report = (
      await t.app.inject({ method: 'GET', url: `/broadcast/${id}/recipients/`, headers: who.headers })
    ).json();
    expect(report).toMatchObject({ clicked: 2, click_rate: 66.7 });
    expect(report.broadcast.link_destination).toBe(DESTINATION);
    expect(report.results[0].clicked_at).toBe(firstAt!.toISOString());
    const notClicked = (
      await t.app.inject({
        method: 'GET',
        url: `/broadcast/${id}/recipients/?clicked=false`,
        headers: who.headers,
      })
    ).json();
    expect(notClicked.count).toBe(1);
    expect(notClicked.results.map((r: { whatsapp_number: string }) => r.whatsapp_number)).toEqual([
      '+447911123403',
    ]);
    const clickedAndRead = (
      await t.app.inject({
        method: 'GET',
        url: `/broadcast/${id}/recipients/?clicked=true&replied=false`,
        headers: who.headers,
      })
    ).json();
    expect(clickedAndRead.count).toBe(2);

    // The history's Click % (null for a broadcast without a tracked link) and the Dashboard's figure.
    const plainId = await createBroadcast(t, who.headers, broadcastPayload('Plain', plain));
    await completed(plainId, 'the plain broadcast to complete');
    const history = (
      await t.app.inject({ method: 'GET', url: '/broadcast/create/', headers: who.headers })
    ).json();
    const row = (bid: number) => history.results.find((r: { id: number }) => r.id === bid);
    expect(row(id).clicked_percentage).toBe(66.7);
    expect(row(plainId).clicked_percentage).toBeNull();
    const dashboard = (
      await t.app.inject({ method: 'GET', url: '/dashboard/', headers: who.headers })
    ).json();
    expect(dashboard.clicks).toMatchObject({ clicked: 2, previous: 0, rate: 66.7 });
    expect(dashboard.days.reduce((sum: number, d: { clicked: number }) => sum + d.clicked, 0)).toBe(2);

    // "New broadcast to those who did not click" reaches exactly the third person (the sandbox's call log).
    const retarget = await createBroadcast(t, who.headers, {
      name: 'Second chance',
      template_id: plain,
      phone_number_id: who.phoneNumberId,
      audience: { kind: 'broadcast_recipients', broadcast_id: id, filter: { clicked: false } },
    });
    await completed(retarget, 'the retarget to complete');
    const retargeted = (
      (await sandbox(`/__sandbox/messages?phone_number_id=${who.phoneNumberId}`)) as {
        data: Array<{ to: string; template?: { name: string } }>;
      }
    ).data.filter((m) => m.template?.name === 'plain_note');
    const plainTo = new Set((await messagesOf(plainId)).map((m) => m.whatsapp_number.replace('+', '')));
    const counts = new Map<string, number>();
    for (const m of retargeted) counts.set(m.to, (counts.get(m.to) ?? 0) + 1);
    // Each number got the plain broadcast once; only the third got the retarget on top.
    expect([...plainTo].sort()).toEqual(['447911123401', '447911123402', '447911123403']);
    expect(Object.fromEntries(counts)).toEqual({ '447911123401': 1, '447911123402': 1, '447911123403': 2 });
  });

  it('refuses anything that is not one of Herald’s links: never a redirect elsewhere', async () => {
    const real = linkToken(secrets, who.accountId, 1);
    const [accountPart, messagePart, signature] = real.split('.');
    const tampered = [
      `${accountPart}.${(Number.parseInt(messagePart!, 36) + 1).toString(36)}.${signature}`,
      `${(who.accountId + 1).toString(36)}.${messagePart}.${signature}`,
      `${accountPart}.${messagePart}.${'A'.repeat(16)}`,
      'https%3A%2F%2Fevil.example.com',
      '..%2F..%2Fevil',
    ];
    for (const token of tampered) {
      const answer = await t.app.inject({ method: 'GET', url: `/l/${token}?to=https://evil.example.com` });
      expect(answer.statusCode).toBe(404);
      expect(answer.headers.location).toBeUndefined();
      expect(answer.body).toContain('This link is not valid or has expired.');
    }
    // A real token whose message was never sent (no such row) is not a link either.
    const unsent = await t.app.inject({
      method: 'GET',
      url: `/l/${linkToken(secrets, who.accountId, 999_999)}`,
    });
    expect(unsent.statusCode).toBe(404);
    // A message of a broadcast without a tracked link: no redirect, nothing recorded.
    const { rows } = await t.db.pool.query<{ id: number }>(
      `select m.id::int from broadcast_messages m join broadcasts b on b.id = m.broadcast_id
        where b.link_destination is null and m.waba_account_id = $1 limit 1`,
      [who.accountId],
    );
    const untracked = await t.app.inject({
      method: 'GET',
      url: `/l/${linkToken(secrets, who.accountId, rows[0]!.id)}`,
    });
    expect(untracked.statusCode).toBe(404);
    const recorded = await t.db.pool.query('select clicked_at from broadcast_messages where id = $1', [
      rows[0]!.id,
    ]);
    expect(recorded.rows[0].clicked_at).toBeNull();
  });
});
