import { META_ERROR, replyWordKey } from '@herald/contracts';
import type { PoolClient } from 'pg';
import { readReplyWords } from '../settings/index';
import type { InboundMessage, MessagesValue, WebhookHandler } from '../webhooks/index';
import {
  applyUserIdChanges,
  e164,
  isBsuid,
  peopleOf,
  recordPeople,
  senderIdsOf,
  userIdChangesOf,
  type WebhookPerson,
} from './bsuid-contacts';
import { applyNumberChanges, numberChangesOf } from './number-changes';

/**
 * The words of a reply, whatever its kind: typed text, a quick-reply button's payload and label, and an
 * interactive reply's button or list row (its title and its id, which a business may set to the word itself).
 */
function wordsOf(message: InboundMessage): string[] {
  const interactive = (message as { interactive?: InteractiveReply }).interactive;
  const words: unknown[] = [
    message.text?.body,
    message.button?.payload,
    message.button?.text,
    interactive?.button_reply?.title,
    interactive?.button_reply?.id,
    interactive?.list_reply?.title,
    interactive?.list_reply?.id,
  ];
  return words.filter((w): w is string => typeof w === 'string').map(replyWordKey);
}

interface InteractiveReply {
  button_reply?: { id?: unknown; title?: unknown };
  list_reply?: { id?: unknown; title?: unknown };
}

/** Who sent a message: its number and/or BSUID, with the username and name the change's `contacts[]` gives. */
function senderOf(message: InboundMessage, contacts: unknown, people: WebhookPerson[]): WebhookPerson | null {
  const { number, bsuid } = senderIdsOf(message, contacts);
  if (number === null && bsuid === null) return null;
  const profile = people.find(
    (p) =>
      (p.name !== null || p.username !== null) &&
      ((bsuid !== null && p.bsuid === bsuid) || (number !== null && p.number === number)),
  );
  return { number, bsuid, username: profile?.username ?? null, name: profile?.name ?? null };
}

/**
 * Opt-outs from the `messages` webhook: a person who replies one of the account's opt-out words (STOP, BAJA, …;
 * typed, a quick-reply button or an interactive reply) or whose message fails with 131050 is opted out of this
 * account's broadcasts; an opt-in word (START, …) opts them back in (decision 081). The
 * person is found by number or by BSUID (decision 050); a person known only by BSUID whom Herald has no contact
 * for becomes a contact, opted out, so later broadcasts leave them out too. Before that, what the change tells
 * of known contacts is kept (a changed number or BSUID, their BSUID, username). Only the account the entry names
 * is touched.
 */
export const applyOptOuts: WebhookHandler = async (client, change) => {
  const value = change.value as MessagesValue | undefined;
  const people = peopleOf(value);
  // Identity changes first, so what the rest of the change says of the person lands on the moved contact.
  await applyNumberChanges(client, change.wabaId, numberChangesOf(value));
  await applyUserIdChanges(client, change.wabaId, userIdChangesOf(value));
  await recordPeople(client, change.wabaId, people);
  const stop = new Map<string, WebhookPerson>();
  const start = new Map<string, WebhookPerson>();
  const key = (p: WebhookPerson) => p.bsuid ?? p.number!;
  const contacts = (value as { contacts?: unknown } | undefined)?.contacts;
  // The account's own opt-out and opt-in words (Settings), or Herald's defaults in English, Spanish and French.
  const replyWords = (value?.messages ?? []).length > 0 ? await readReplyWords(client, change.wabaId) : null;
  for (const message of value?.messages ?? []) {
    const person = senderOf(message, contacts, people);
    if (person === null) continue;
    const words = wordsOf(message);
    if (words.some((w) => replyWords!.optOut.has(w))) stop.set(key(person), person);
    else if (words.some((w) => replyWords!.optIn.has(w))) start.set(key(person), person);
  }
  for (const status of value?.statuses ?? []) {
    const number = e164(status.recipient_id);
    const bsuid = isBsuid(status.recipient_user_id) ? status.recipient_user_id : null;
    if (
      status.status === 'failed' &&
      (number !== null || bsuid !== null) &&
      status.errors?.some((e) => e.code === META_ERROR.stoppedMarketing)
    ) {
      const person = { number, bsuid, username: null, name: null };
      stop.set(key(person), person);
    }
  }
  for (const k of start.keys()) stop.delete(k);
  if (stop.size > 0) await setOptedOut(client, change.wabaId, true, [...stop.values()]);
  if (start.size > 0) await setOptedOut(client, change.wabaId, false, [...start.values()]);
  if (stop.size > 0) await addStoppedStrangers(client, change.wabaId, [...stop.values()]);
};

interface UserPreference {
  wa_id?: unknown;
  user_id?: unknown;
  category?: unknown;
  value?: unknown;
}

/**
 * The `user_preferences` webhook: a person stopped or resumed this business's marketing messages in WhatsApp
 * itself (Meta sends nothing marketing to them meanwhile: 131050). A stop opts the contact out like a STOP
 * reply, a person known only by BSUID included; a resume opts them back in like START: it is the person's own
 * latest choice, made where Meta asks it (decision 080). Other categories change nothing.
 */
export const applyUserPreferences: WebhookHandler = async (client, change) => {
  const value = change.value as { contacts?: unknown; user_preferences?: unknown } | undefined;
  const people = peopleOf({ contacts: value?.contacts });
  await recordPeople(client, change.wabaId, people);
  const stop = new Map<string, WebhookPerson>();
  const resume = new Map<string, WebhookPerson>();
  const preferences = Array.isArray(value?.user_preferences)
    ? (value.user_preferences as UserPreference[])
    : [];
  for (const preference of preferences) {
    if (preference?.category !== 'marketing_messages') continue;
    const number = e164(preference.wa_id);
    const bsuid = isBsuid(preference.user_id) ? preference.user_id : null;
    if (number === null && bsuid === null) continue;
    const profile = people.find(
      (p) => (number !== null && p.number === number) || (bsuid !== null && p.bsuid === bsuid),
    );
    const person = {
      number,
      bsuid: bsuid ?? profile?.bsuid ?? null,
      username: profile?.username ?? null,
      name: profile?.name ?? null,
    };
    const key = person.bsuid ?? number!;
    // The latest preference of a person in the change wins.
    stop.delete(key);
    resume.delete(key);
    if (preference.value === 'stop') stop.set(key, person);
    else if (preference.value === 'resume') resume.set(key, person);
  }
  if (stop.size > 0) await setOptedOut(client, change.wabaId, true, [...stop.values()]);
  if (resume.size > 0) await setOptedOut(client, change.wabaId, false, [...resume.values()]);
  if (stop.size > 0) await addStoppedStrangers(client, change.wabaId, [...stop.values()]);
};

const personParams = (people: WebhookPerson[]) => [
  people.map((p) => p.number),
  people.map((p) => p.bsuid),
  people.map((p) => p.username),
  people.map((p) => p.name),
];

/** Opts the contacts these people are (by number, by BSUID, or by a BSUID kept as the address) in or out. */
function setOptedOut(client: PoolClient, wabaId: string, optedOut: boolean, people: WebhookPerson[]) {
  return client.query(
    `with x as (select * from unnest($2::text[], $3::text[]) as x(number, bsuid))
     update contacts c set opted_out_at = ${optedOut ? 'coalesce(c.opted_out_at, now())' : 'null'}, updated_at = now()
       from waba_accounts w
      where w.waba_id = $1 and c.waba_account_id = w.id and (c.opted_out_at is null) = $4
        and exists (select 1 from x where c.whatsapp_number = x.number or c.bsuid = x.bsuid
                                      or c.whatsapp_number = x.bsuid)`,
    [wabaId, ...personParams(people).slice(0, 2), optedOut],
  );
}

/**
 * A person known only by BSUID who stops and is no contact yet becomes one, opted out: otherwise nothing would
 * remember the STOP, and an audience that later reaches them (an import of their number cannot: it has none)
 * or a contact created from a later webhook would message them again. Named by profile name, else username.
 */
async function addStoppedStrangers(client: PoolClient, wabaId: string, people: WebhookPerson[]) {
  const strangers = people.filter((p) => p.number === null && p.bsuid !== null);
  if (strangers.length === 0) return;
  await client.query(
    `with x as (select * from unnest($2::text[], $3::text[], $4::text[], $5::text[]) as x(number, bsuid, username, name)),
     w as (select id from waba_accounts where waba_id = $1),
     added as (
       insert into contacts (waba_account_id, name, whatsapp_number, bsuid, username, opted_out_at)
       select w.id, coalesce(x.name, x.username, x.bsuid), x.bsuid, x.bsuid, x.username, now()
         from x cross join w
        where not exists (select 1 from contacts c where c.waba_account_id = w.id
                            and (c.bsuid = x.bsuid or c.whatsapp_number = x.bsuid))
       on conflict do nothing
       returning waba_account_id)
     insert into contact_counts (waba_account_id, total)
     select waba_account_id, count(*) from added group by waba_account_id
     on conflict (waba_account_id) do update set total = contact_counts.total + excluded.total`,
    [wabaId, ...personParams(strangers)],
  );
}
