import type { PoolClient } from 'pg';

/** A stored inbound message the batch's end links to the broadcast message it answers (below). */
export interface NewInbound {
  id: number;
  accountId: number;
  /** The address broadcasts reach the sender at: their contact's (number, or BSUID for a username-only one). */
  number: string;
  sentAt: Date;
  /** The wamid it answers: context.id, or the message a reaction is on. */
  contextWamid: string | null;
  press: boolean;
}

/**
 * How far a reply's timestamp (WhatsApp's, whole seconds) may be before Herald's acceptance time of the message
 * it answers: the two clocks differ, and a quick reply can carry the same second as the send.
 */
const CLOCK_SLACK = `interval '1 minute'`;

const params = (replies: NewInbound[]) => [
  replies.map((r) => r.id),
  replies.map((r) => r.accountId),
  replies.map((r) => r.number),
  replies.map((r) => r.sentAt),
  replies.map((r) => r.contextWamid),
  replies.map((r) => r.press),
];

/**
 * The message each reply answers, within its account: the message whose wamid its context names, else the
 * latest broadcast message its number received (sent, delivered or read; by the time Meta accepted it) in the 24
 * hours before the reply. `states` widens the second rule for the plain read that finds which broadcasts to lock
 * before the batch's statuses are applied (a status in the same batch may take an accepted message to sent).
 */
const linkSql = (states: string[], only: string) => `
  with x as (select * from unnest($1::bigint[], $2::bigint[], $3::text[], $4::timestamptz[], $5::text[], $6::bool[])
                        as x(id, account, number, sent_at, ctx, press)),
  t as (
    select x.id as inbound_id, x.account, x.sent_at, x.press, found.id as message_id, found.broadcast_id
      from x cross join lateral (
        (select m.id, m.broadcast_id from broadcast_messages m
           join broadcasts b on b.waba_account_id = m.waba_account_id and b.id = m.broadcast_id
          where x.ctx is not null and m.waba_account_id = x.account and m.wamid = x.ctx ${only})
        union all
        (select m.id, m.broadcast_id from broadcasts b
           join broadcast_messages m
             on m.waba_account_id = b.waba_account_id and m.broadcast_id = b.id and m.whatsapp_number = x.number
          where b.waba_account_id = x.account and b.started_at <= x.sent_at + ${CLOCK_SLACK} ${only}
            and m.state in (${states.map((s) => `'${s}'`).join(', ')})
            and m.accepted_at > x.sent_at - interval '24 hours' and m.accepted_at <= x.sent_at + ${CLOCK_SLACK}
          order by m.accepted_at desc, m.id desc limit 1)
        limit 1) found)`;

/** A message row a reply of the batch may answer, with its broadcast. */
export interface ReplyTarget {
  accountId: number;
  id: number;
  broadcastId: number;
}

/**
 * The message rows the batch's replies may answer (plain read, no lock): the batch locks their broadcasts, then
 * them, in its one order, before it links anything.
 */
export async function replyTargets(client: PoolClient, replies: NewInbound[]): Promise<ReplyTarget[]> {
  if (replies.length === 0) return [];
  const { rows } = await client.query<ReplyTarget>(
    `${linkSql(['accepted', 'held', 'sent', 'delivered', 'read', 'unknown'], '')}
     select distinct account::int as "accountId", message_id::int as id, broadcast_id::int as "broadcastId" from t`,
    params(replies),
  );
  return rows;
}

/**
 * Links replies to the messages they answer, among the message rows the caller has locked (`targets`, with
 * their broadcasts; lockMessageRows says why the lock comes in a statement of its own): the inbound
 * row names its message; the message keeps its earliest answer (reply_id and engaged_at; replied_at for a
 * written one), whatever order the webhooks came in; the broadcast counts its recipients who replied. The
 * message update's trigger moves the Dashboard's figures in the same statement (migration 015).
 */
export async function linkLockedReplies(
  client: PoolClient,
  replies: NewInbound[],
  targets: ReplyTarget[],
): Promise<void> {
  if (replies.length === 0 || targets.length === 0) return;
  await client.query(
    `${linkSql(['sent', 'delivered', 'read'], 'and b.id = any($7::bigint[])')},
     linked as (update inbound_messages i set broadcast_message_id = t.message_id
                  from t where i.waba_account_id = t.account and i.id = t.inbound_id),
     agg as (
       select account, message_id, (array_agg(inbound_id order by sent_at, inbound_id))[1] as first_id,
              min(sent_at) as first_at, min(sent_at) filter (where not press) as first_written
         from t group by account, message_id),
     locked as materialized (
       select m.id, m.broadcast_id, m.reply_id from broadcast_messages m
        where (m.waba_account_id, m.id) in (select account, message_id from agg) and m.id = any($8::bigint[])),
     -- The first answer of each message not answered before (the rows are locked: this reads them as they are).
     newly as (select broadcast_id, count(*)::int as n from locked where reply_id is null group by broadcast_id),
     counted as (update broadcasts b set replied_count = b.replied_count + newly.n from newly
                  where b.id = newly.broadcast_id)
     update broadcast_messages m
        set reply_id = case when m.engaged_at is null or a.first_at < m.engaged_at then a.first_id else m.reply_id end,
            engaged_at = least(m.engaged_at, a.first_at),
            replied_at = least(m.replied_at, a.first_written)
       from agg a join locked l on l.id = a.message_id
      where m.waba_account_id = a.account and m.id = a.message_id`,
    [...params(replies), [...new Set(targets.map((t) => t.broadcastId))], targets.map((t) => t.id)],
  );
}
