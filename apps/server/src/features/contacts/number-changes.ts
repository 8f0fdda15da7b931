import type { PoolClient } from 'pg';
import { moveUnsentMessages } from '../broadcasts/index';
import { e164, isBsuid } from './bsuid-contacts';

/** One `user_changed_number` system message: the old number, the new one, and the sender's BSUID if given. */
export interface NumberChange {
  from: string;
  to: string;
  bsuid: string | null;
}

/** The attribute that marks a contact whose person moved onto another contact's number (decision 075). */
export const REPLACED_BY = 'replaced_by';

/**
 * The number changes of a `messages` change. Meta's system message names the old number in `from` and the new
 * one in `system.wa_id`; earlier versions of the same message called it `system.new_wa_id`, still accepted.
 */
export function numberChangesOf(value: unknown): NumberChange[] {
  const messages = ((value ?? {}) as { messages?: unknown[] }).messages;
  const changes: NumberChange[] = [];
  for (const raw of Array.isArray(messages) ? messages : []) {
    const m = raw as {
      type?: unknown;
      from?: unknown;
      from_user_id?: unknown;
      system?: { type?: unknown; wa_id?: unknown; new_wa_id?: unknown };
    };
    if (m?.type !== 'system' || m.system?.type !== 'user_changed_number') continue;
    const from = e164(m.from);
    const to = e164(m.system.wa_id ?? m.system.new_wa_id);
    if (from !== null && to !== null && from !== to)
      changes.push({ from, to, bsuid: isBsuid(m.from_user_id) ? m.from_user_id : null });
  }
  return changes;
}

interface Pair {
  account: string;
  old_id: string | null;
  /** The number broadcasts reached the old contact at (the old number, unless it was found by BSUID). */
  old_number: string | null;
  new_id: string | null;
}

/**
 * Moves each contact whose person changed number onto the new number, in every account of the entry's WABA,
 * in the order Meta reported the changes. Without a contact at the new number the row itself moves, so its
 * history, tags and opt-out go with it. When one exists, it is kept and the old contact is folded into it
 * (`mergeInto`). A contact already marked replaced is never moved again, so a redelivered webhook changes nothing.
 * The contact at the new number remembers the old one (`previous_number`: a plain reply may answer a message sent
 * there), and broadcast messages not yet sent to the old number go to the new one.
 */
export async function applyNumberChanges(
  client: PoolClient,
  wabaId: string,
  changes: NumberChange[],
): Promise<void> {
  for (const change of changes) {
    // The old contact is the one at the old number, else (a contact known by BSUID alone) the one with the BSUID.
    const { rows } = await client.query<Pair>(
      `select w.id as account, o.id as old_id, o.whatsapp_number as old_number,
              (select c.id from contacts c where c.waba_account_id = w.id and c.whatsapp_number = $3) as new_id
         from waba_accounts w
         left join lateral (
           select c.id, c.whatsapp_number from contacts c
            where c.waba_account_id = w.id and not c.attributes ? '${REPLACED_BY}'
              and (c.whatsapp_number = $2 or ($4::text is not null and c.bsuid = $4))
            order by c.whatsapp_number = $2 desc, c.id limit 1) o on true
        where w.waba_id = $1`,
      [wabaId, change.from, change.to, change.bsuid],
    );
    for (const pair of rows) {
      if (pair.old_id === null || pair.old_id === pair.new_id) continue;
      if (pair.new_id === null) {
        await client.query(
          `update contacts set whatsapp_number = $3, previous_number = $4, updated_at = now()
            where waba_account_id = $1 and id = $2`,
          [pair.account, pair.old_id, change.to, change.from],
        );
      } else {
        await mergeInto(client, pair.account, pair.old_id, pair.new_id, change.to);
        await client.query(
          `update contacts set previous_number = $3 where waba_account_id = $1 and id = $2`,
          [pair.account, pair.new_id, change.from],
        );
      }
      await moveUnsentMessages(client, {
        accountId: Number(pair.account),
        fromContactId: Number(pair.old_id),
        fromNumber: pair.old_number ?? change.from,
        toContactId: Number(pair.new_id ?? pair.old_id),
        toNumber: change.to,
      });
    }
  }
}

/**
 * The clash (decision 075): a contact already has the new number. It is kept, since it is the one that number
 * reaches and the one an import of that number updates. It takes the old contact's tags, its opt-out (opted out
 * if either was: a STOP said on either number was said by this person), its BSUID and username and the details
 * it lacks. The old contact stays, with its history, as a record: opted out, untagged, without BSUID, marked
 * `replaced_by` the new number, so no broadcast goes to a number that may now belong to someone else.
 */
async function mergeInto(
  client: PoolClient,
  account: string,
  oldId: string,
  newId: string,
  newNumber: string,
): Promise<void> {
  // Both rows locked, in id order, before any link is written (decision 014: link only rows you hold).
  const { rows } = await client.query<{ id: string }>(
    `select id from contacts where waba_account_id = $1 and id = any($2::bigint[]) order by id for update`,
    [account, [oldId, newId]],
  );
  if (rows.length !== 2) return;
  await client.query(
    `with moving as (
       select t.id from contact_tags l join tags t on t.waba_account_id = l.waba_account_id and t.id = l.tag_id
        where l.waba_account_id = $1 and l.contact_id = $2
        for key share of t)
     insert into contact_tags (waba_account_id, contact_id, tag_id)
     select $1, $3, id from moving
     on conflict do nothing`,
    [account, oldId, newId],
  );
  await client.query(`delete from contact_tags where waba_account_id = $1 and contact_id = $2`, [
    account,
    oldId,
  ]);
  // The old row gives up its BSUID first: the account's BSUIDs are unique, and the kept contact may take it.
  const { rows: old } = await client.query<Record<string, unknown>>(
    `update contacts c
        set opted_out_at = coalesce(c.opted_out_at, now()), bsuid = null, username = null,
            attributes = c.attributes || jsonb_build_object('${REPLACED_BY}', $3::text), updated_at = now()
       from contacts before
      where c.waba_account_id = $1 and c.id = $2 and before.waba_account_id = c.waba_account_id and before.id = c.id
      returning before.opted_out_at, before.bsuid, before.username, before.age, before.gender, before.address,
                before.post_code, before.email, before.attributes`,
    [account, oldId, newNumber],
  );
  const o = old[0]!;
  await client.query(
    `update contacts
        set opted_out_at = coalesce(opted_out_at, $3), bsuid = coalesce(bsuid, $4), username = coalesce(username, $5),
            age = coalesce(age, $6), gender = coalesce(gender, $7), address = coalesce(address, $8),
            post_code = coalesce(post_code, $9), email = coalesce(email, $10),
            attributes = $11::jsonb || attributes, updated_at = now()
      where waba_account_id = $1 and id = $2`,
    [
      account,
      newId,
      o.opted_out_at,
      o.bsuid,
      o.username,
      o.age,
      o.gender,
      o.address,
      o.post_code,
      o.email,
      JSON.stringify(o.attributes ?? {}),
    ],
  );
}
