import type { PoolClient } from 'pg';
import type { Pool } from '../../../db/pool';

/** One click on a recipient's tracked link (link-clicks' redirect). */
export interface FirstClick {
  accountId: number;
  messageId: number;
  /** Meta's click_id when the URL carried one. */
  clickId: string | null;
}

/**
 * Records a batch of tracked-link clicks: each recipient's first click (clicked_at, never moved by a repeat),
 * Meta's click_id when one came, and the component Meta's click webhook named if it came first. Only messages
 * of broadcasts with a link destination take a click, once Herald has asked Meta to send them (requested: a
 * click may come before Herald has written Meta's answer, and must not be lost). Rows are locked in id order (decision 022), so two
 * batches never deadlock. Answers where each message's link leads, by `account.message`.
 */
export async function recordFirstClicks(pool: Pool, batch: FirstClick[]): Promise<Map<string, string>> {
  const { rows } = await pool.query<{ account: number; message: number; destination: string }>({
    name: 'record-first-clicks',
    text: `with input as (
       select * from unnest($1::bigint[], $2::bigint[], $3::text[]) with ordinality as i(account, message, click_id, n)),
     target as (
       select distinct on (i.account, i.message) i.account, i.message, i.click_id, b.link_destination
         from input i
         join broadcast_messages m on m.waba_account_id = i.account and m.id = i.message and m.requested_at is not null
         join broadcasts b on b.waba_account_id = m.waba_account_id and b.id = m.broadcast_id
        where b.link_destination is not null
        order by i.account, i.message, i.n),
     locked as (
       select m.waba_account_id, m.id, t.click_id
         from broadcast_messages m join target t on m.waba_account_id = t.account and m.id = t.message
        where m.clicked_at is null or (m.click_id is null and t.click_id is not null)
        order by m.waba_account_id, m.id
          for update of m),
     hit as (
       update broadcast_messages m
          set clicked_at = coalesce(m.clicked_at, now()),
              click_id = coalesce(m.click_id, l.click_id),
              click_component = coalesce(m.click_component,
                (select c.click_component from meta_link_clicks c
                  where c.waba_account_id = l.waba_account_id and c.click_id = l.click_id))
         from locked l
        where m.waba_account_id = l.waba_account_id and m.id = l.id
       returning m.id)
     select account::int, message::int, link_destination as destination from target`,
    values: [batch.map((c) => c.accountId), batch.map((c) => c.messageId), batch.map((c) => c.clickId)],
  });
  return new Map(rows.map((r) => [`${r.account}.${r.message}`, r.destination]));
}

/**
 * Meta's click webhook named the part of the message clicked (cta or body): the message whose tracked link was
 * opened with that click_id takes it, if it has none yet.
 */
export async function noteClickComponent(
  client: PoolClient,
  accountId: number,
  clickId: string,
  component: string,
): Promise<void> {
  await client.query(
    `update broadcast_messages set click_component = $3
      where waba_account_id = $1 and click_id = $2 and click_component is null`,
    [accountId, clickId, component],
  );
}

/**
 * A template's tracked-link clicks since `since`: distinct recipients who clicked, and the broadcasts of the
 * template they were in (by when each message was requested). The clicked partial index keeps it to the clicks.
 */
export async function trackedClicksOfTemplate(
  pool: Pool,
  accountId: number,
  templateId: number,
  since: Date,
): Promise<{ people: number; broadcasts: number }> {
  const { rows } = await pool.query<{ people: number; broadcasts: number }>(
    `select count(distinct m.whatsapp_number)::int as people, count(distinct m.broadcast_id)::int as broadcasts
       from broadcasts b
       join broadcast_messages m on m.waba_account_id = b.waba_account_id and m.broadcast_id = b.id
      where b.waba_account_id = $1 and b.template_id = $2 and m.clicked_at is not null and m.requested_at >= $3`,
    [accountId, templateId, since],
  );
  return rows[0] ?? { people: 0, broadcasts: 0 };
}
