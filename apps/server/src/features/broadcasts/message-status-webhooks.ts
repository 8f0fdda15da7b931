import type { MessageStatus, MessagesValue } from '../webhooks/messages-value';
import type { WebhookHandler } from '../webhooks/webhook-processor';
import { refreshBroadcastCounts } from './broadcast-counts';

// Forward order of the states a status can set; failed is handled apart (terminal, beats anything not read).
const RANK: Record<string, number> = { sent: 1, delivered: 2, read: 3 };

/**
 * `messages` webhooks: delivery statuses of broadcast messages, found by `biz_opaque_callback_data` (the row
 * id Herald sent) or the wamid, and only within the WABA the entry names. States only move forward, so
 * duplicates and out-of-order deliveries change nothing; an unconfirmed row is settled by its first status.
 * One statement per webhook; the affected broadcasts' counters are recounted exactly once per batch of webhooks.
 */
export const applyMessageStatuses: WebhookHandler = async (client, change, batch) => {
  const statuses = ((change.value as MessagesValue | undefined)?.statuses ?? []).filter(
    (s) => typeof s.status === 'string' && (RANK[s.status] !== undefined || s.status === 'failed'),
  );
  if (statuses.length === 0) return;
  // Keep the furthest status per message within this batch; Postgres updates a row once per statement.
  const best = new Map<string, MessageStatus>();
  for (const status of statuses) {
    const key = status.biz_opaque_callback_data ?? status.id ?? '';
    const current = best.get(key);
    const rank = (s: MessageStatus) => (s.status === 'failed' ? 10 : (RANK[s.status!] ?? 0));
    if (!current || rank(status) > rank(current)) best.set(key, status);
  }
  const entries = [...best.values()];
  const { rows } = await client.query<{ broadcast_id: number }>(
    `with incoming as (
       select * from unnest($2::text[], $3::text[], $4::text[], $5::int[], $6::text[])
                 as x(row_id, wamid, status, code, title)),
     targets as (
       select found.id, i.* from incoming i
         -- By the row id Herald sent, else by wamid: one index lookup per status, whatever the statistics
         -- say (a join here may walk every message of the broadcast when they are stale, as after a start).
         cross join lateral (
           select m.id, m.broadcast_id from broadcast_messages m
            where m.id = case when i.row_id ~ '^[0-9]{1,18}$' then i.row_id::bigint end
           union all
           select m.id, m.broadcast_id from broadcast_messages m where m.wamid = i.wamid
           limit 1) found
        where exists (select 1 from broadcasts b join waba_accounts w on w.id = b.waba_account_id
                       where b.id = found.broadcast_id and w.waba_id = $1))
     update broadcast_messages m
        set state = t.status,
            wamid = coalesce(m.wamid, t.wamid),
            accepted_at = coalesce(m.accepted_at, now()),
            delivered_at = case when t.status in ('delivered', 'read') then coalesce(m.delivered_at, now()) else m.delivered_at end,
            read_at = case when t.status = 'read' then coalesce(m.read_at, now()) else m.read_at end,
            failed_at = case when t.status = 'failed' then now() else m.failed_at end,
            error_code = case when t.status = 'failed' then t.code else m.error_code end,
            error_title = case when t.status = 'failed' then t.title else m.error_title end
       from targets t
      where m.id = t.id
        and m.state not in ('failed', 'read')
        and (t.status = 'failed'
             or coalesce(array_position(array['sent', 'delivered', 'read'], m.state), 0)
                < array_position(array['sent', 'delivered', 'read'], t.status))
        and not (t.status = 'failed' and m.state = 'delivered')
     returning m.broadcast_id::int`,
    [
      change.wabaId,
      entries.map((s) => s.biz_opaque_callback_data ?? null),
      entries.map((s) => s.id ?? null),
      entries.map((s) => s.status!),
      entries.map((s) => s.errors?.[0]?.code ?? null),
      entries.map((s) =>
        s.status === 'failed' ? (s.errors?.[0]?.title ?? s.errors?.[0]?.message ?? 'Failed') : null,
      ),
    ],
  );
  const touched = batch.collect(
    'broadcast-counts',
    () => new Set<number>(),
    (batchClient, ids) => refreshBroadcastCounts(batchClient, [...ids]),
  );
  for (const row of rows) touched.add(row.broadcast_id);
};
