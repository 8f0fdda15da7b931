import type { PoolClient } from 'pg';

/**
 * A business-scoped user id as Meta writes it: two letters of country, a dot, then up to 128 letters and digits
 * (a parent BSUID has `ENT.` after the country). Anything else is not taken for one.
 */
const BSUID = /^[A-Z]{2}\.(ENT\.)?[A-Za-z0-9]{1,128}$/;

export const isBsuid = (value: unknown): value is string => typeof value === 'string' && BSUID.test(value);

/** Whether a contact's address (its `whatsapp_number`) is a BSUID, i.e. the contact has no visible number. */
export const isBsuidAddress = (address: string): boolean => BSUID.test(address);

/** A phone number from a webhook (digits, maybe with '+') as Herald stores it, else null. */
export const e164 = (value: unknown): string | null =>
  typeof value === 'string' && /^\+?\d{1,20}$/.test(value) ? `+${value.replace(/^\+/, '')}` : null;

/** One person a webhook names: their number when WhatsApp shows it, their BSUID, their username and name. */
export interface WebhookPerson {
  number: string | null;
  bsuid: string | null;
  username: string | null;
  name: string | null;
}

interface RawValue {
  contacts?: Array<{ wa_id?: unknown; user_id?: unknown; profile?: { name?: unknown; username?: unknown } }>;
  messages?: Array<{ from?: unknown; from_user_id?: unknown }>;
  statuses?: Array<{ recipient_id?: unknown; recipient_user_id?: unknown }>;
}

const text = (v: unknown) => (typeof v === 'string' && v.trim().length > 0 ? v.trim() : null);

/**
 * Everyone a `messages` change names, with what it says of each: `contacts[]` (wa_id, user_id, profile), an
 * inbound message's `from` / `from_user_id` and a status's `recipient_id` / `recipient_user_id` (decision 050).
 */
export function peopleOf(value: unknown): WebhookPerson[] {
  const v = (value ?? {}) as RawValue;
  const people: WebhookPerson[] = [];
  for (const c of Array.isArray(v.contacts) ? v.contacts : []) {
    people.push({
      number: e164(c?.wa_id),
      bsuid: isBsuid(c?.user_id) ? c.user_id : null,
      username: text(c?.profile?.username),
      name: text(c?.profile?.name),
    });
  }
  for (const m of Array.isArray(v.messages) ? v.messages : []) {
    people.push({
      number: e164(m?.from),
      bsuid: isBsuid(m?.from_user_id) ? m.from_user_id : null,
      username: null,
      name: null,
    });
  }
  for (const s of Array.isArray(v.statuses) ? v.statuses : []) {
    people.push({
      number: e164(s?.recipient_id),
      bsuid: isBsuid(s?.recipient_user_id) ? s.recipient_user_id : null,
      username: null,
      name: null,
    });
  }
  return people.filter((p) => p.number !== null || p.bsuid !== null);
}

/**
 * Keeps what a webhook tells of known contacts: a contact found by number gains its BSUID (unless another
 * contact of the account already holds it), and one found by BSUID its latest username. No contact is created.
 */
export async function recordPeople(
  client: PoolClient,
  wabaId: string,
  people: WebhookPerson[],
): Promise<void> {
  const known = people.filter((p) => p.bsuid !== null);
  if (known.length === 0) return;
  const params = [
    wabaId,
    known.map((p) => p.number),
    known.map((p) => p.bsuid),
    known.map((p) => p.username),
  ];
  // What the change says of each BSUID, from all its mentions (a message names the number, contacts[] the username).
  const x = `with x as (select bsuid, max(number) as number, max(username) as username
                        from unnest($2::text[], $3::text[], $4::text[]) as x(number, bsuid, username) group by bsuid)`;
  // The account as a scalar (computed once before the scan), so every contacts lookup below uses both columns of
  // its index. Joined as a row, the account let the planner look a BSUID up by the index's second column alone:
  // a scan of the whole index for each person while the statistics still said no contact had a BSUID (127 ms for
  // 100 statuses at 100,000 contacts, the largest cost of the scale bench's database; 4 ms this way).
  const account = '(select id from waba_accounts where waba_id = $1)';
  // Contacts another transaction is writing are skipped, not waited for: every status names its person again,
  // and a webhook batch that waited here on another's contacts while holding its own could deadlock with it.
  await client.query(
    `${x},
     t as (select c.id, x.bsuid from contacts c, x
            where c.waba_account_id = ${account} and x.number is not null and c.whatsapp_number = x.number
              and c.bsuid is distinct from x.bsuid
              and not exists (select 1 from contacts o
                               where o.waba_account_id = c.waba_account_id and o.bsuid = x.bsuid)
            order by c.id for no key update of c skip locked)
     update contacts c set bsuid = t.bsuid, updated_at = now() from t where c.id = t.id`,
    params,
  );
  // Statuses never name a username: most changes need no second round trip.
  if (!known.some((p) => p.username !== null)) return;
  // A second statement, so it sees the BSUIDs the first one set.
  await client.query(
    `${x},
     t as (select c.id, x.username from contacts c, x
            where c.waba_account_id = ${account} and c.bsuid = x.bsuid and x.username is not null
              and c.username is distinct from x.username
            order by c.id for no key update of c skip locked)
     update contacts c set username = t.username, updated_at = now() from t where c.id = t.id`,
    params,
  );
}

/**
 * The system message Meta sends when a user's BSUID changes (`user_changed_user_id`; the user changed their
 * number): the contact holding the old id takes the new one, and a username-only contact, addressed by its
 * BSUID, is addressed by the new one from now on. Unless a contact already holds the new id.
 */
export async function applyUserIdChanges(
  client: PoolClient,
  wabaId: string,
  changes: Array<{ from: string; to: string }>,
): Promise<void> {
  if (changes.length === 0) return;
  await client.query(
    `with x as (select * from unnest($2::text[], $3::text[]) as x(old_id, new_id)),
     w as (select id from waba_accounts where waba_id = $1)
     update contacts c
        set bsuid = x.new_id,
            whatsapp_number = case when c.whatsapp_number = x.old_id then x.new_id else c.whatsapp_number end,
            updated_at = now()
       from x, w
      where c.waba_account_id = w.id and c.bsuid = x.old_id
        and not exists (select 1 from contacts o where o.waba_account_id = w.id
                          and (o.bsuid = x.new_id or o.whatsapp_number = x.new_id))`,
    [wabaId, changes.map((c) => c.from), changes.map((c) => c.to)],
  );
}

/**
 * The old and new BSUIDs of each `user_changed_user_id` system message of a `messages` change. Meta's 2026
 * changelog names them `system.previous_user_id` and `system.user_id`; the shape Herald read first (decision 050:
 * the old id in the message's `from_user_id`) is still accepted. `previous_user_id` wins when both are present,
 * as `from_user_id` may then already be the new id.
 */
export function userIdChangesOf(value: unknown): Array<{ from: string; to: string }> {
  const messages = ((value ?? {}) as { messages?: unknown[] }).messages;
  const changes: Array<{ from: string; to: string }> = [];
  for (const raw of Array.isArray(messages) ? messages : []) {
    const m = raw as {
      type?: unknown;
      from_user_id?: unknown;
      previous_user_id?: unknown;
      system?: { type?: unknown; user_id?: unknown; previous_user_id?: unknown };
    };
    if (m?.type !== 'system' || m.system?.type !== 'user_changed_user_id') continue;
    const from = [m.system.previous_user_id, m.previous_user_id, m.from_user_id].find(isBsuid);
    const to = m.system.user_id;
    if (from !== undefined && isBsuid(to) && from !== to) changes.push({ from, to });
  }
  return changes;
}

/**
 * Who sent an inbound message: `from` and `from_user_id`; when it carries neither, the one person its change's
 * `contacts[]` names (Meta lists the sender there, and a user who hides their number may come with `user_id`
 * only). With several people in `contacts[]` nothing is guessed.
 */
export function senderIdsOf(
  message: { from?: unknown; from_user_id?: unknown },
  contacts: unknown,
): { number: string | null; bsuid: string | null } {
  const number = e164(message?.from);
  const bsuid = isBsuid(message?.from_user_id) ? message.from_user_id : null;
  if (number !== null || bsuid !== null) return { number, bsuid };
  const listed = Array.isArray(contacts) ? (contacts as NonNullable<RawValue['contacts']>) : [];
  if (listed.length !== 1) return { number: null, bsuid: null };
  const only = listed[0];
  return { number: e164(only?.wa_id), bsuid: isBsuid(only?.user_id) ? only.user_id : null };
}
