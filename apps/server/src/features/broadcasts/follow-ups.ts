import { trackedButtonIndex, type FollowUpRequest, type FollowUpUnless } from '@herald/contracts';
import type { PoolClient } from 'pg';
import type { Pool } from '../../db/pool';
import { HttpError } from '../../http-error';
import type { OwnedWaba } from '../../owned-waba';
import { findSendableTemplate } from './audience/broadcast-estimate';

/**
 * Follow-ups (decision 099): a broadcast created with its parent, scheduled `after_hours` after the parent's
 * start, whose audience is chosen when it starts, from the parent's recipients WhatsApp reported sent who did not
 * read, reply or click. It starts only once its parent has completed, and is cancelled with it.
 */

/** The parent's message states whose recipients a follow-up may reach: WhatsApp reported the message sent. */
const REACHED_STATES: Record<FollowUpUnless, readonly string[]> = {
  // Not read: sent or delivered (a read one is read).
  read: ['sent', 'delivered'],
  replied: ['sent', 'delivered', 'read'],
  clicked: ['sent', 'delivered', 'read'],
};

/** The follow-up's template, checked as the parent's is: the account's, approved, and without a tracked link. */
export async function followUpTemplate(
  pool: Pool,
  waba: OwnedWaba,
  followUp: FollowUpRequest,
  parentHasLink: boolean,
  trackedLinkPrefix: string | undefined,
) {
  const template = await findSendableTemplate(
    pool,
    waba,
    followUp.template_id,
    'follow_up.template_id',
    'Choose the follow-up’s template',
  );
  if (trackedLinkPrefix && trackedButtonIndex(template.components ?? [], trackedLinkPrefix) !== null) {
    throw HttpError.field(
      400,
      'follow_up.template_id',
      'A follow-up cannot use a template with a tracked link: choose one without',
    );
  }
  if (followUp.unless === 'clicked' && !parentHasLink) {
    throw HttpError.field(
      400,
      'follow_up.unless',
      'Only a broadcast with a tracked link knows who clicked: choose read or replied',
    );
  }
  return template;
}

/** Writes the follow-up of `parentId`, in the transaction that writes its parent. */
export async function insertFollowUp(
  client: PoolClient,
  values: {
    accountId: number;
    phoneId: number;
    parentId: number;
    parentName: string;
    parentStart: Date;
    parentEstimate: number;
    template: {
      id: number;
      name: string;
      language: string;
      category: string;
      message_send_ttl_seconds: number | null;
    };
    followUp: FollowUpRequest;
    leaveOutUs: boolean;
  },
): Promise<number> {
  const { template, followUp } = values;
  const { rows } = await client.query<{ id: number }>(
    `insert into broadcasts (waba_account_id, phone_number_id, template_id, template_name, template_language, name,
                             audience, scheduled_at, status, total_recipients, message_ttl_seconds,
                             follow_up_of, follow_up_unless, follow_up_after_hours)
     values ($1, $2, $3, $4, $5, $6, $7, $8, 'scheduled', $9, $10, $11, $12, $13) returning id::int`,
    [
      values.accountId,
      values.phoneId,
      template.id,
      template.name,
      template.language,
      `${values.parentName} (follow-up)`.slice(0, 200),
      // The list is chosen when it starts (followUpContactIds): the report describes it as one from its parent.
      JSON.stringify({
        type: 'list',
        from_broadcast_id: values.parentId,
        percentage: 100,
        leave_out_us: values.leaveOutUs,
      }),
      new Date(values.parentStart.getTime() + followUp.after_hours * 3_600_000),
      // Until it starts: at most the parent's recipients.
      values.parentEstimate,
      template.category.toUpperCase() === 'MARKETING' ? template.message_send_ttl_seconds : null,
      values.parentId,
      followUp.unless,
      followUp.after_hours,
    ],
  );
  return rows[0]!.id;
}

/**
 * The contacts a follow-up goes to, chosen as it starts: its parent's recipients WhatsApp reported sent who did
 * not do what it follows up, each once. The audience's own rules (opted out, US numbers) apply after this.
 */
export async function followUpContactIds(
  client: PoolClient,
  accountId: number,
  parentId: number,
  unless: FollowUpUnless,
): Promise<number[]> {
  const { rows } = await client.query<{ ids: number[] }>(
    `select coalesce(array_agg(distinct m.contact_id::int), '{}') as ids
       from broadcast_messages m
      where m.waba_account_id = $1 and m.broadcast_id = $2 and m.contact_id is not null
        and m.state = any($3::text[])
        and case $4 when 'replied' then m.reply_id is null
                    when 'clicked' then m.clicked_at is null
                    else true end`,
    [accountId, parentId, REACHED_STATES[unless], unless],
  );
  return rows[0]!.ids;
}

/** SQL: the due broadcast `b` may start: it is no follow-up, or its parent has completed. */
export const PARENT_DONE_SQL = `(b.follow_up_of is null
  or exists (select 1 from broadcasts p where p.waba_account_id = b.waba_account_id and p.id = b.follow_up_of
              and p.status = 'completed'))`;

/**
 * Cancels the follow-ups of a broadcast being cancelled, in its transaction (the parent's row is locked; a
 * follow-up's id is larger, so the lock order by id holds).
 */
export async function cancelFollowUps(
  client: PoolClient,
  accountId: number,
  parentId: number,
): Promise<void> {
  await client.query(
    `with x as (select id from broadcasts where waba_account_id = $1 and follow_up_of = $2
                   and status in ('scheduled', 'paused') order by id for no key update)
     update broadcasts b set status = 'cancelled', completed_at = now(),
            status_reason = 'Cancelled with the broadcast it follows up'
       from x where b.waba_account_id = $1 and b.id = x.id`,
    [accountId, parentId],
  );
}
