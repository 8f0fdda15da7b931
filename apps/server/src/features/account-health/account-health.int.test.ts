import { accountPauseReason } from '@herald/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../test-support/test-app';
import { signedInUser } from '../auth/auth-test-helpers';
import { postSignedWebhook } from '../webhooks/webhook-test-helpers';

// Meta's account_update webhooks about a ban, restrictions and violations, posted signed in Meta's shapes.
let t: TestApp;

interface Account {
  wabaId: string;
  id: number;
  phoneId: number;
  headers: Record<string, string>;
}

const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
  t.db.pool.query(sql, params).then((r) => r.rows as T[]);

async function account(email: string, name: string): Promise<Account> {
  const user = await signedInUser(t, email, name);
  const wabaId = user.business.waba_id;
  const [row] = await q<{ id: number; phone_id: number }>(
    `select a.id::int, p.id::int as phone_id from waba_accounts a join phone_numbers p on p.waba_account_id = a.id
      where a.waba_id = $1`,
    [wabaId],
  );
  return {
    wabaId,
    id: row!.id,
    phoneId: row!.phone_id,
    headers: { authorization: `Bearer ${user.accessToken}`, 'x-waba-id': wabaId },
  };
}

async function broadcast(owner: Account, name: string, status: string): Promise<number> {
  const [row] = await q<{ id: number }>(
    `insert into broadcasts (waba_account_id, phone_number_id, template_name, template_language, name, audience,
                             scheduled_at, status, started_at)
     values ($1, $2, 'spring_promo', 'en_US', $3, '{}', now() + interval '1 day', $4,
             case when $4 = 'sending' then now() end) returning id::int`,
    [owner.id, owner.phoneId, name, status],
  );
  return row!.id;
}

const statusOf = async (id: number) =>
  (
    await q<{ status: string; status_reason: string | null }>(
      'select status, status_reason from broadcasts where id = $1',
      [id],
    )
  )[0]!;

/** One signed change for the account, as Meta sends it (`time`: when Meta says it happened), applied before this returns. */
async function webhook(owner: Account, field: string, value: Record<string, unknown>, time = 1_767_225_600) {
  const body = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [{ id: owner.wabaId, time, changes: [{ field, value }] }],
  });
  const response = await postSignedWebhook(t, body);
  expect(response.statusCode).toBe(200);
  await t.app.webhooks.idle();
}

const accountUpdate = (owner: Account, value: Record<string, unknown>, time?: number) =>
  webhook(
    owner,
    'account_update',
    { waba_info: { waba_id: owner.wabaId, owner_business_id: '5550001' }, ...value },
    time,
  );

const GOOD_STANDING = {
  ban: null,
  restrictions: [],
  restricted_since: null,
  violation: null,
  disconnected: null,
  review: null,
};

/** What the banner reads: the header's `account_health` (absent in good standing, shown here as such). */
async function health(owner: Account) {
  const response = await t.app.inject({ method: 'GET', url: '/dashboard/header', headers: owner.headers });
  expect(response.statusCode).toBe(200);
  return response.json().account_health ?? GOOD_STANDING;
}

let banned: Account;
let bystander: Account;
beforeAll(async () => {
  t = await startTestApp();
  banned = await account('banned@acme.test', 'Banned Shop');
  bystander = await account('bystander@acme.test', 'Bystander Shop');
});
afterAll(() => t?.close());

describe('account_update: ban (DISABLED_UPDATE)', () => {
  it('a DISABLE pauses sending and scheduled broadcasts with the reason; REINSTATE clears it and resumes none', async () => {
    const sending = await broadcast(banned, 'Autumn sale', 'sending');
    const scheduled = await broadcast(banned, 'Winter sale', 'scheduled');
    const done = await broadcast(banned, 'Old sale', 'completed');
    const elsewhere = await broadcast(bystander, 'Their sale', 'sending');

    await accountUpdate(banned, {
      event: 'DISABLED_UPDATE',
      ban_info: { waba_ban_state: 'DISABLE', waba_ban_date: '2026-11-27' },
    });

    const [stored] = await q<{ ban_state: string; ban_date: string }>(
      'select ban_state, ban_date from account_health where waba_account_id = $1',
      [banned.id],
    );
    expect(stored).toEqual({ ban_state: 'DISABLE', ban_date: '2026-11-27' });
    expect(
      await q('select event from account_health_events where waba_account_id = $1', [banned.id]),
    ).toEqual([{ event: 'DISABLED_UPDATE' }]);
    expect(await statusOf(sending)).toEqual({ status: 'paused', status_reason: accountPauseReason('ban') });
    expect(await statusOf(scheduled)).toEqual({ status: 'paused', status_reason: accountPauseReason('ban') });
    expect((await statusOf(done)).status).toBe('completed');

    const body = await health(banned);
    expect(body.ban).toEqual({
      state: 'DISABLE',
      date: '2026-11-27T00:00:00.000Z',
      since: expect.any(String),
    });

    // Another account is untouched: its broadcast goes on and its banner is empty.
    expect((await statusOf(elsewhere)).status).toBe('sending');
    const theirs = await t.app.inject({
      method: 'GET',
      url: '/dashboard/header',
      headers: bystander.headers,
    });
    expect(theirs.json()).not.toHaveProperty('account_health');

    // While banned, nothing can be resumed or created: it would only send into WhatsApp's errors.
    const resume = () =>
      t.app.inject({ method: 'POST', url: `/broadcast/${sending}/resume/`, headers: banned.headers });
    const refused = await resume();
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      errors: [{ field: 'status', message: accountPauseReason('ban') }],
    });
    const created = await t.app.inject({
      method: 'POST',
      url: '/broadcast/create/',
      headers: banned.headers,
      payload: { name: 'During the ban', template_id: 1, recipients: { type: 'all', percentage: 100 } },
    });
    expect(created.statusCode).toBe(409);
    expect(created.json()).toMatchObject({ errors: [{ field: 'waba', message: accountPauseReason('ban') }] });
    expect((await statusOf(sending)).status).toBe('paused');

    await accountUpdate(banned, { event: 'DISABLED_UPDATE', ban_info: { waba_ban_state: 'REINSTATE' } });
    expect((await health(banned)).ban).toBeNull();
    // Nothing resumes by itself: the user resumes each broadcast, and the ban no longer stands in the way.
    expect(await statusOf(sending)).toEqual({ status: 'paused', status_reason: accountPauseReason('ban') });
    expect((await statusOf(scheduled)).status).toBe('paused');
    expect(JSON.stringify((await resume()).json())).not.toContain(accountPauseReason('ban'));
  });

  it('a scheduled ban (SCHEDULE_FOR_DISABLE) is shown with its date and pauses nothing', async () => {
    const sending = await broadcast(bystander, 'Still going', 'sending');
    await accountUpdate(bystander, {
      event: 'DISABLED_UPDATE',
      ban_info: { waba_ban_state: 'SCHEDULE_FOR_DISABLE', waba_ban_date: 'December 9, 2026' },
    });
    const body = await health(bystander);
    expect(body.ban.state).toBe('SCHEDULE_FOR_DISABLE');
    expect(body.ban.date).toMatch(/^2026-12-09/);
    expect((await statusOf(sending)).status).toBe('sending');
    await accountUpdate(bystander, { event: 'DISABLED_UPDATE', ban_info: { waba_ban_state: 'REINSTATE' } });
  });
});

describe('account_update: restrictions and violations', () => {
  it('a restriction of business-initiated messaging pauses broadcasts; its expiry clears it from the banner', async () => {
    const sending = await broadcast(banned, 'Spring sale', 'sending');
    const future = '2099-04-19T13:59:20+0000';
    await accountUpdate(banned, {
      event: 'ACCOUNT_RESTRICTION',
      restriction_info: [
        { restriction_type: 'RESTRICTED_BIZ_INITIATED_MESSAGING', expiration: future },
        // Already expired when it arrives: stored, not shown.
        { restriction_type: 'RESTRICTED_ADD_PHONE_NUMBER_ACTION', expiration: 1_700_000_000 },
      ],
    });
    expect(await statusOf(sending)).toEqual({
      status: 'paused',
      status_reason: accountPauseReason('restriction'),
    });
    const body = await health(banned);
    expect(body.restrictions).toEqual([
      { type: 'RESTRICTED_BIZ_INITIATED_MESSAGING', expires_at: '2099-04-19T13:59:20.000Z' },
    ]);
    expect(body.restricted_since).toEqual(expect.any(String));
    const refused = await t.app.inject({
      method: 'POST',
      url: `/broadcast/${sending}/resume/`,
      headers: banned.headers,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      errors: [{ field: 'status', message: accountPauseReason('restriction') }],
    });

    // Meta lifts the restrictions (an empty list): the banner clears, the broadcast stays paused.
    await accountUpdate(banned, { event: 'ACCOUNT_RESTRICTION', restriction_info: [] });
    expect((await health(banned)).restrictions).toEqual([]);
    expect((await statusOf(sending)).status).toBe('paused');
  });

  it('a restriction on replies or numbers, and a violation, are shown and pause nothing', async () => {
    const sending = await broadcast(bystander, 'Customer care', 'sending');
    await accountUpdate(bystander, {
      event: 'ACCOUNT_RESTRICTION',
      restriction_info: [{ restriction_type: 'RESTRICTED_CUSTOMER_INITIATED_MESSAGING' }],
    });
    await accountUpdate(bystander, {
      event: 'ACCOUNT_VIOLATION',
      violation_info: { violation_type: 'SCAM' },
    });
    const body = await health(bystander);
    expect(body.restrictions).toEqual([
      { type: 'RESTRICTED_CUSTOMER_INITIATED_MESSAGING', expires_at: null },
    ]);
    expect(body.violation).toEqual({ type: 'SCAM', at: expect.any(String) });
    expect((await statusOf(sending)).status).toBe('sending');
  });

  it('ignores other account_update events and unknown accounts', async () => {
    await accountUpdate(
      { ...bystander, wabaId: '999999999999' },
      { event: 'ACCOUNT_VIOLATION', violation_info: { violation_type: 'SPAM' } },
    );
    await accountUpdate(bystander, { event: 'AD_ACCOUNT_LINKED' });
    const events = await q<{ event: string }>(
      'select event from account_health_events where waba_account_id = $1 order by id',
      [bystander.id],
    );
    expect(events.map((e) => e.event)).not.toContain('AD_ACCOUNT_LINKED');
    expect((await health(bystander)).violation.type).toBe('SCAM');
  });
});

describe('account_update: Herald cut off from the account; account_review_update', () => {
  let cut: Account;
  beforeAll(async () => {
    cut = await account('cut@acme.test', 'Cut Shop');
  });
  const create = () =>
    t.app.inject({
      method: 'POST',
      url: '/broadcast/create/',
      headers: cut.headers,
      payload: { name: 'While cut off', template_id: 1, recipients: { type: 'all', percentage: 100 } },
    });

  it('a removed partner pauses broadcasts and refuses new ones until Herald is added back; nothing resumes', async () => {
    const sending = await broadcast(cut, 'Cut mid-send', 'sending');
    await accountUpdate(cut, { event: 'PARTNER_REMOVED' });
    const reason = accountPauseReason({ disconnected: 'PARTNER_REMOVED' });
    expect(await statusOf(sending)).toEqual({ status: 'paused', status_reason: reason });
    expect((await health(cut)).disconnected).toEqual({ event: 'PARTNER_REMOVED', since: expect.any(String) });
    const refused = await create();
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ errors: [{ field: 'waba', message: reason }] });

    // A reconnection undoes only the loss it answers: ACCOUNT_RECONNECTED is not Herald added back.
    await accountUpdate(cut, { event: 'ACCOUNT_RECONNECTED' });
    expect((await health(cut)).disconnected).toMatchObject({ event: 'PARTNER_REMOVED' });
    await accountUpdate(cut, { event: 'PARTNER_ADDED' });
    expect((await health(cut)).disconnected).toBeNull();
    expect((await statusOf(sending)).status).toBe('paused');
  });

  it('a review that is not APPROVED holds sending (Meta: such a WABA cannot use the APIs) until it is approved', async () => {
    const scheduled = await broadcast(cut, 'Awaiting review', 'scheduled');
    await webhook(cut, 'account_review_update', { decision: 'PENDING' });
    const reason = accountPauseReason({ review: 'PENDING' });
    expect(await statusOf(scheduled)).toEqual({ status: 'paused', status_reason: reason });
    expect((await health(cut)).review).toEqual({ decision: 'PENDING', since: expect.any(String) });
    expect((await create()).json()).toMatchObject({ errors: [{ field: 'waba', message: reason }] });
    await webhook(cut, 'account_review_update', { decision: 'APPROVED' });
    expect(await health(cut)).toEqual(GOOD_STANDING);
  });

  it("applies events in Meta's order: a late delivery of an older event is kept but changes nothing", async () => {
    await accountUpdate(
      cut,
      { event: 'DISABLED_UPDATE', ban_info: { waba_ban_state: 'DISABLE' } },
      1_800_000_100,
    );
    // Meta reinstated it earlier (time …000) than it disabled it (…100); the reinstatement arrives second.
    await accountUpdate(
      cut,
      { event: 'DISABLED_UPDATE', ban_info: { waba_ban_state: 'REINSTATE' } },
      1_800_000_000,
    );
    expect((await health(cut)).ban).toMatchObject({ state: 'DISABLE' });
    const kept = await q<{ event: string; meta_time: Date }>(
      `select event, meta_time from account_health_events where waba_account_id = $1 and event = 'DISABLED_UPDATE'
        order by id`,
      [cut.id],
    );
    expect(kept.map((e) => e.meta_time.getTime() / 1000)).toEqual([1_800_000_100, 1_800_000_000]);
    // Another part of the standing is not held back by the ban's newer time.
    await accountUpdate(
      cut,
      { event: 'ACCOUNT_VIOLATION', violation_info: { violation_type: 'SPAM' } },
      1_700_000_000,
    );
    expect((await health(cut)).violation).toMatchObject({ type: 'SPAM' });
    await accountUpdate(
      cut,
      { event: 'DISABLED_UPDATE', ban_info: { waba_ban_state: 'REINSTATE' } },
      1_800_000_200,
    );
    expect((await health(cut)).ban).toBeNull();
  });

  it('each change of standing reaches the bell once, linked to the numbers screen; a repeated delivery adds none', async () => {
    const bell = async () =>
      (await t.app.inject({ method: 'GET', url: '/dashboard/header', headers: cut.headers }))
        .json()
        .events.filter((e: { kind: string }) => e.kind === 'account_standing');
    const before = (await bell()).length;
    await accountUpdate(cut, { event: 'PARTNER_APP_UNINSTALLED' }, 1_800_000_300);
    await accountUpdate(cut, { event: 'PARTNER_APP_UNINSTALLED' }, 1_800_000_300);
    const events = await bell();
    expect(events).toHaveLength(before + 1);
    expect(events[0]).toMatchObject({
      title: "Business account: Herald's permissions revoked",
      detail: expect.stringContaining('nothing can be sent until it is linked again with Embedded Signup'),
      link: '/number',
      unread: true,
    });
    await accountUpdate(cut, { event: 'PARTNER_APP_INSTALLED' }, 1_800_000_400);
    const [lifted] = await bell();
    expect(lifted).toMatchObject({
      title: "Business account: Herald's permissions granted",
      detail: 'Nothing stops sending any more. Broadcasts it paused stay paused until you resume them.',
    });
  });
});
