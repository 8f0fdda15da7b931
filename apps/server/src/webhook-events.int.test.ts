import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBusiness, type Business } from '../../../test-support/business';
import { startTestApp, type TestApp } from '../../../test-support/test-app';

/**
 * Every event the sandbox can send on demand (its `/__sandbox/webhook-events`, Meta's shapes), sent through a
 * real signed delivery to a running Herald, each with its documented effect: what it changes, or, for the events
 * docs/webhooks.md calls "stored, no effect", that the account's state is exactly as it was and the event is kept
 * and processed without error. Events run in the table's order: a resume follows its stop, an unarchive its
 * archive. Inbound messages and statuses have suites of their own (replies, statuses, opt-out).
 */
let t: TestApp;
let owner: Business;
let accountId: number;
let templateId: number;
let metaTemplateId: string;
const NUMBER = '+14155559001';
const NEW_NUMBER = '+14155559002';
const BSUID = 'US.13491208655302741918';
const NEW_BSUID = 'US.99991208655302741918';

const sandbox = async (path: string, body?: object) => {
  const response = await fetch(`${t.sandboxUrl}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

const one = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
  (await t.db.pool.query(sql, params)).rows[0] as T;

/** What any event could change of the account: its standing, numbers, templates and contacts. */
async function accountState() {
  return one(
    `select
       (select to_jsonb(h) - 'updated_at' from account_health h where waba_account_id = $1) as health,
       (select count(*)::int from account_health_events where waba_account_id = $1) as health_events,
       (select to_jsonb(w) - 'updated_at' from waba_accounts w where id = $1) as account,
       (select jsonb_agg(to_jsonb(p) - 'updated_at' order by id) from phone_numbers p where waba_account_id = $1) as numbers,
       (select jsonb_agg(to_jsonb(x) - 'updated_at' order by id) from templates x where waba_account_id = $1) as templates,
       (select jsonb_agg(to_jsonb(c) - 'updated_at' order by id) from contacts c where waba_account_id = $1) as contacts,
       (select jsonb_agg(jsonb_build_object('id', id, 'status', status, 'reason', status_reason) order by id)
          from broadcasts where waba_account_id = $1) as broadcasts`,
    [accountId],
  );
}

const health = () => one('select * from account_health where waba_account_id = $1', [accountId]);
const template = () =>
  one('select * from templates where waba_account_id = $1 and id = $2', [accountId, templateId]);
const contact = () =>
  one<{ whatsapp_number: string; bsuid: string | null; opted_out: boolean }>(
    `select whatsapp_number, bsuid, opted_out_at is not null as opted_out from contacts
      where waba_account_id = $1 and name = 'Changer'`,
    [accountId],
  );

type Effect = 'none' | (() => Promise<void>);

/** The effect of an event Herald only tells the business about: the bell's newest WhatsApp alert. */
const bell = (title: string | RegExp, detail: RegExp) => async () => {
  const latest = await one<{ title: string; detail: string }>(
    `select title, detail from account_events where waba_account_id = $1 and kind = 'account_alert'
      order by id desc limit 1`,
    [accountId],
  );
  expect(latest?.title).toMatch(title);
  expect(latest?.detail).toMatch(detail);
};

const disconnectedBy = (event: string | null) => async () =>
  expect(await health()).toMatchObject({ disconnected_by: event });

/** Each event, the parameters its example needs, and its effect. */
const EVENTS: Array<[string, Record<string, string>, Effect]> = [
  [
    'account_update:ACCOUNT_VIOLATION',
    {},
    async () => expect(await health()).toMatchObject({ violation_type: 'SCAM' }),
  ],
  [
    'account_update:ACCOUNT_RESTRICTION',
    {},
    async () => {
      const { restrictions } = await health();
      expect(restrictions).toEqual([
        { type: 'RESTRICTED_BIZ_INITIATED_MESSAGING', expires_at: expect.any(String) },
      ]);
      // A restriction of business-initiated messaging pauses the account's scheduled broadcast.
      expect((await accountState()).broadcasts).toEqual([
        { id: owner.broadcastIds[0], status: 'paused', reason: expect.any(String) },
      ]);
    },
  ],
  [
    'account_update:DISABLED_UPDATE',
    {},
    async () => expect(await health()).toMatchObject({ ban_state: 'DISABLE' }),
  ],
  [
    'account_update:DISABLED_UPDATE REINSTATE',
    {},
    async () => expect(await health()).toMatchObject({ ban_state: null }),
  ],
  // Herald cut off from the account, then reconnected by the event that answers each loss.
  ['account_update:ACCOUNT_DELETED', {}, disconnectedBy('ACCOUNT_DELETED')],
  ['account_update:ACCOUNT_OFFBOARDED', {}, disconnectedBy('ACCOUNT_OFFBOARDED')],
  ['account_update:ACCOUNT_RECONNECTED', {}, disconnectedBy(null)],
  ['account_update:PARTNER_REMOVED', {}, disconnectedBy('PARTNER_REMOVED')],
  ['account_update:PARTNER_ADDED', {}, disconnectedBy(null)],
  ['account_update:PARTNER_APP_UNINSTALLED', {}, disconnectedBy('PARTNER_APP_UNINSTALLED')],
  ['account_update:PARTNER_APP_INSTALLED', {}, disconnectedBy(null)],
  ['account_update:PARTNER_CLIENT_CERTIFICATION_STATUS_UPDATE', {}, 'none'],
  ['account_update:AUTH_INTL_PRICE_ELIGIBILITY_UPDATE', {}, 'none'],
  ['account_update:BUSINESS_PRIMARY_LOCATION_COUNTRY_UPDATE', {}, 'none'],
  ['account_update:AD_ACCOUNT_LINKED', {}, 'none'],
  ['account_update:MM_LITE_TERMS_SIGNED', {}, 'none'],
  ['account_update:VOLUME_BASED_PRICING_TIER_UPDATE', {}, 'none'],
  [
    'account_alerts:INCREASED_CAPABILITIES_ELIGIBILITY_DEFERRED',
    {},
    bell(
      'Increased capabilities eligibility deferred',
      /Example increased capabilities eligibility deferred/,
    ),
  ],
  [
    'account_alerts:INCREASED_CAPABILITIES_ELIGIBILITY_FAILED',
    {},
    bell('Increased capabilities eligibility failed', /Example increased capabilities eligibility failed/),
  ],
  [
    'account_alerts:INCREASED_CAPABILITIES_ELIGIBILITY_NEED_MORE_INFO',
    {},
    bell(
      'Increased capabilities eligibility need more info',
      /Example increased capabilities eligibility need more info/,
    ),
  ],
  ['account_alerts:OBA_APPROVED', {}, bell('Oba approved', /Example oba approved/)],
  ['account_alerts:OBA_REJECTED', {}, bell('Oba rejected', /Example oba rejected/)],
  ['account_alerts:PROFILE_PICTURE_LOST', {}, bell('Profile picture lost', /Example profile picture lost/)],
  [
    'account_review_update:REJECTED',
    {},
    async () => expect(await health()).toMatchObject({ review_decision: 'REJECTED' }),
  ],
  [
    'account_review_update:APPROVED',
    {},
    async () => expect(await health()).toMatchObject({ review_decision: null }),
  ],
  [
    'security:PIN_CHANGED',
    {},
    async () => {
      await bell(/^Two-step PIN changed \(\+\d+\)$/, /no longer holds the current PIN/)();
      // The PIN Herald kept from sign-up is not the number's any more.
      const [number] = (await accountState()).numbers as Array<{ two_step_pin_encrypted: string | null }>;
      expect(number!.two_step_pin_encrypted).toBeNull();
    },
  ],
  ['security:PIN_RESET_REQUEST', {}, bell(/^Two-step PIN reset requested/, /turn off two-step verification/)],
  ['security:PIN_REQUEST_SUCCESS', {}, bell(/^Two-step verification turned off/, /no longer holds a PIN/)],
  [
    'phone_number_name_update:APPROVED',
    {},
    async () =>
      expect(
        (await one('select verified_name from phone_numbers where waba_account_id = $1', [accountId]))
          .verified_name,
      ).toBe('Example Shop'),
  ],
  [
    'phone_number_name_update:REJECTED',
    {},
    async () => {
      await bell(
        'Display name rejected',
        /"Example Shop Deals" .*: RELATIONSHIP_UNCLEAR\. The number keeps its current name\./,
      )();
      expect(
        (await one('select verified_name from phone_numbers where waba_account_id = $1', [accountId]))
          .verified_name,
      ).toBe('Example Shop');
    },
  ],
  [
    'messages:errors',
    {},
    bell(
      'WhatsApp could not process a request (#130501)',
      /^Unsupported message type: Message type is not currently supported$/,
    ),
  ],
  [
    'user_preferences:stop',
    { from: NUMBER },
    async () => expect(await contact()).toMatchObject({ opted_out: true }),
  ],
  [
    'user_preferences:resume',
    { from: NUMBER },
    async () => expect(await contact()).toMatchObject({ opted_out: false }),
  ],
  [
    'messages:system user_changed_user_id',
    { from: NUMBER, user_id: BSUID, new_user_id: NEW_BSUID },
    async () => expect(await contact()).toMatchObject({ whatsapp_number: NUMBER, bsuid: NEW_BSUID }),
  ],
  [
    'messages:system user_changed_number',
    { from: NUMBER, new_number: NEW_NUMBER },
    async () => expect(await contact()).toMatchObject({ whatsapp_number: NEW_NUMBER, opted_out: false }),
  ],
  [
    'message_template_status_update:FLAGGED',
    {},
    async () => expect((await template()).flagged_at).not.toBeNull(),
  ],
  [
    'message_template_status_update:LOCKED',
    {},
    async () => expect(await template()).toMatchObject({ status: 'APPROVED', locked: true }),
  ],
  [
    'message_template_status_update:ARCHIVED',
    {},
    async () =>
      expect(await template()).toMatchObject({ status: 'ARCHIVED', status_before_archive: 'APPROVED' }),
  ],
  [
    'message_template_status_update:UNARCHIVED',
    {},
    async () => expect(await template()).toMatchObject({ status: 'APPROVED' }),
  ],
  [
    'message_template_status_update:PAUSED',
    {},
    async () => expect(await template()).toMatchObject({ status: 'PAUSED' }),
  ],
  [
    'message_template_status_update:APPROVED',
    {},
    // Approved again: no longer at risk, so the FLAGGED warning goes.
    async () => expect(await template()).toMatchObject({ status: 'APPROVED', flagged_at: null }),
  ],
  [
    'message_template_components_update',
    {},
    async () =>
      expect((await template()).components).toEqual([
        { type: 'HEADER', format: 'TEXT', text: 'Order update' },
        { type: 'BODY', text: 'Your order {{1}} is ready to collect (edited in WhatsApp Manager)' },
        { type: 'FOOTER', text: 'Reply STOP to opt out' },
        {
          type: 'BUTTONS',
          buttons: [{ type: 'URL', text: 'Track order', url: 'https://shop.example/track/{{1}}' }],
        },
      ]),
  ],
  [
    'template_category_update:impending',
    {},
    async () =>
      expect(await template()).toMatchObject({
        category: 'UTILITY',
        pending_category: 'MARKETING',
        pending_category_at: expect.any(Date),
      }),
  ],
  [
    'template_category_update:done',
    {},
    async () => expect(await template()).toMatchObject({ category: 'MARKETING', pending_category: null }),
  ],
  [
    'message_template_status_update:LIMIT_EXCEEDED',
    {},
    async () =>
      expect(
        (await one('select template_limit_exceeded_at from waba_accounts where id = $1', [accountId]))
          .template_limit_exceeded_at,
      ).not.toBeNull(),
  ],
  [
    'message_template_status_update:REJECTED',
    {},
    async () =>
      expect(await template()).toMatchObject({
        status: 'REJECTED',
        rejected_reason: 'INVALID_FORMAT',
        rejection_detail: 'The body has a variable at its end.',
        rejection_recommendation: 'Move the variable.',
      }),
  ],
  [
    'message_template_status_update:PENDING_DELETION',
    {},
    async () => expect(await template()).toMatchObject({ status: 'PENDING_DELETION' }),
  ],
];

beforeAll(async () => {
  t = await startTestApp();
  owner = await makeBusiness(t, {
    email: 'every-event@acme.test',
    contacts: [{ name: 'Changer', number: NUMBER }],
    templates: [{ name: 'every_event', category: 'UTILITY' }],
    broadcasts: [{ name: 'Later', scheduled_time: Math.floor(Date.now() / 1000) + 86_400 }],
  });
  ({ id: accountId } = await one<{ id: number }>('select id::int from waba_accounts where waba_id = $1', [
    owner.business.waba_id,
  ]));
  templateId = owner.templateIds[0]!;
  metaTemplateId = String((await template()).meta_template_id);
  // The number's two-step PIN as sign-up keeps it when Herald registers the number (encrypted; any text here).
  await t.db.pool.query(
    `update phone_numbers set two_step_pin_encrypted = 'sealed-pin' where waba_account_id = $1`,
    [accountId],
  );
  // The contact is known by BSUID too, as a reply in 2026 makes it (decision 050).
  await t.db.pool.query(`update contacts set bsuid = $2 where waba_account_id = $1 and name = 'Changer'`, [
    accountId,
    BSUID,
  ]);
}, 60_000);
afterAll(() => t.close());

/** Sends one example through the sandbox and waits until Herald has stored and processed it. */
async function deliver(event: string, params: Record<string, string>) {
  const field = event.split(':')[0]!;
  const { last } = await one<{ last: number }>(
    'select coalesce(max(id), 0)::int as last from webhook_events',
  );
  const sent = await sandbox('/__sandbox/webhook-events', {
    event,
    phone_number_id: owner.business.phone_number_id,
    template_id: metaTemplateId,
    ...params,
  });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  // This event's own row (stored after `last`, of its field), once its handlers have run: the drain marks it
  // processed in the transaction that applies it.
  for (const deadline = Date.now() + 10_000; ;) {
    await t.app.webhooks.idle();
    const row = await one<{ field: string; processed: boolean; error: string | null } | undefined>(
      `select payload->'entry'->0->'changes'->0->>'field' as field, processed_at is not null as processed,
              last_error as error
         from webhook_events
        where id > $1 and payload->'entry'->0->'changes'->0->>'field' = $2
        order by id limit 1`,
      [last, field],
    );
    if (row?.processed || row?.error) return row;
    if (Date.now() > deadline) throw new Error(`${event} was not processed: ${JSON.stringify(row)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('every webhook event the sandbox sends', () => {
  it('is an event the table below tests, and one docs/webhooks.md names', async () => {
    const listed = (await sandbox('/__sandbox/webhook-events')).body.events as string[];
    expect([...listed].sort()).toEqual(EVENTS.map(([event]) => event).sort());
    const doc = readFileSync(new URL('../../../docs/webhooks.md', import.meta.url), 'utf8');
    const undocumented = listed.filter((event) => !doc.includes(event.split(/[: ]/).pop()!));
    expect(undocumented).toEqual([]);
  });

  it.each(EVENTS)('%s has its documented effect', async (event, params, effect) => {
    const before = await accountState();
    const stored = await deliver(event, params);
    expect(stored).toMatchObject({ field: event.split(':')[0], processed: true, error: null });
    if (effect === 'none') expect(await accountState()).toEqual(before);
    else await effect();
  });
});
