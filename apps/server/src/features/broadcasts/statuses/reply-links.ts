import type { PoolClient } from 'pg';

/** A stored inbound message the batch's end links to the broadcast message it answers (below). */
export interface NewInbound {
  id: number;
  accountId: number;
  /** The address broadcasts reach the sender at: their contact's (number, or BSUID for a username-only one). */
  number: string;
  /** The contact's number before WhatsApp said they changed it, and the contact: a reply may answer what went there. */
  previousNumber: string | null;
  contactId: number | null;
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

/** The parameters $1 to $8 of linkSql. */
export const replyParams = (replies: NewInbound[]) => [
  replies.map((r) => r.id),
  replies.map((r) => r.accountId),
  replies.map((r) => r.number),
  replies.map((r) => r.sentAt),
  replies.map((r) => r.contextWamid),
  replies.map((r) => r.press),
  replies.map((r) => r.previousNumber),
  replies.map((r) => r.contactId),
];

/**
 * The message each reply answers, within its account: the message whose wamid its context names, else the
 * latest broadcast message its number received (sent, delivered or read; by the time Meta accepted it) in the 24
 * hours before the reply; for a contact who changed number, also what its contact received at the number before
 * (never someone else's message to that number, which may now be theirs). `states` widens the second rule for the plain read that finds which broadcasts to lock
 * before the batch's statuses are applied (a status in the same batch may take an accepted message to sent);
 * the link itself is message-rows.ts's recordReplies.
 */
export const linkSql = (states: string[], only: string) => `
  with x as (select * from unnest($1::bigint[], $2::bigint[], $3::text[], $4::timestamptz[], $5::text[], $6::bool[],
                                  $7::text[], $8::bigint[])
                        as x(id, account, number, sent_at, ctx, press, previous, contact)),
  t as (
    select x.id as inbound_id, x.account, x.sent_at, x.press, found.id as message_id, found.broadcast_id
      from x cross join lateral (
        (select m.id, m.broadcast_id from broadcast_messages m
           join broadcasts b on b.waba_account_id = m.waba_account_id and b.id = m.broadcast_id
          where x.ctx is not null and m.waba_account_id = x.account and m.wamid = x.ctx ${only})
        union all
        (select m.id, m.broadcast_id from broadcasts b
           join broadcast_messages m
             on m.waba_account_id = b.waba_account_id and m.broadcast_id = b.id
            and m.whatsapp_number = any(array[x.number, x.previous])
            and (m.whatsapp_number = x.number or m.contact_id = x.contact)
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
    replyParams(replies),
  );
  return rows;
}
