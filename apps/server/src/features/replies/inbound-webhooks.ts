import { INBOUND_KINDS, type InboundKind, PRESS_KINDS } from '@herald/contracts';
import type { PoolClient } from 'pg';
import { broadcastWrites } from '../broadcasts/index';
import { senderIdsOf } from '../contacts/index';
import type { WebhookHandler } from '../webhooks/index';

/** An inbound message as Meta documents it: only the fields Herald reads, any of them possibly absent. */
interface RawInbound {
  from?: unknown;
  /** The sender's BSUID: since 2026 the only sender id when WhatsApp hides their number (decision 050). */
  from_user_id?: unknown;
  id?: unknown;
  timestamp?: unknown;
  type?: unknown;
  context?: { id?: unknown };
  text?: { body?: unknown };
  button?: { payload?: unknown; text?: unknown };
  interactive?: { button_reply?: { title?: unknown }; list_reply?: { title?: unknown } };
  image?: { caption?: unknown };
  video?: { caption?: unknown };
  document?: { caption?: unknown; filename?: unknown };
  reaction?: { message_id?: unknown; emoji?: unknown };
  location?: { name?: unknown; address?: unknown };
}

const str = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : null);

/** What Herald keeps of one message: its kind and its words (text, caption, button text, emoji). */
export function readInbound(m: RawInbound): { kind: InboundKind; body: string | null } {
  const type = str(m.type);
  const kind = (INBOUND_KINDS as readonly string[]).includes(type ?? '') ? (type as InboundKind) : 'other';
  const body = (() => {
    switch (kind) {
      case 'text':
        return str(m.text?.body);
      case 'button':
        return str(m.button?.text) ?? str(m.button?.payload);
      case 'interactive':
        return str(m.interactive?.button_reply?.title) ?? str(m.interactive?.list_reply?.title);
      case 'image':
        return str(m.image?.caption);
      case 'video':
        return str(m.video?.caption);
      case 'document':
        return str(m.document?.caption) ?? str(m.document?.filename);
      case 'reaction':
        return str(m.reaction?.emoji);
      case 'location':
        return str(m.location?.name) ?? str(m.location?.address);
      default:
        return null;
    }
  })();
  return { kind, body };
}

/** WhatsApp's Unix-seconds timestamp, else now (a message without one still happened). */
function sentAt(raw: unknown): Date {
  const n =
    typeof raw === 'string' && /^\d{1,12}$/.test(raw) ? Number(raw) : typeof raw === 'number' ? raw : NaN;
  return Number.isFinite(n) && n > 0 ? new Date(n * 1000) : new Date();
}

/**
 * `messages` webhooks: stores every inbound message of the account the entry names, once per wamid (Meta
 * delivers at least once), with the contact when Herald knows the sender by number or by BSUID (no contact is
 * created otherwise). `from_number` is the number, or the BSUID when WhatsApp hides the number.
 * Linking it to the broadcast message it answers happens at the batch's end, under the broadcasts' lock order
 * (broadcasts/message-status-webhooks.ts), after the batch's statuses. STOP/START stay with opt-out-webhooks.ts.
 */
export const storeInboundMessages: WebhookHandler = async (client, change, batch) => {
  const value = change.value as { messages?: RawInbound[]; contacts?: unknown } | undefined;
  // The sender falls back to the change's one contacts[] entry when the message names none (a BSUID-only user).
  const messages = (value?.messages ?? [])
    .map((m) => ({ ...m, sender: senderIdsOf(m, value?.contacts) }))
    .filter(
      (m) =>
        (m.sender.number !== null || m.sender.bsuid !== null) && str(m.id) !== null && m.type !== 'system',
    );
  if (messages.length === 0) return;
  const parsed = messages.map((m) => ({ m, ...readInbound(m) }));
  const { rows } = await client.query<{
    id: number;
    waba_account_id: number;
    from_number: string;
    sent_at: Date;
    wamid: string;
    address: string;
    previous_number: string | null;
    contact_id: number | null;
  }>(
    `with x as (select * from unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::text[])
                             as x(wamid, number, kind, body, sent_at, bsuid)),
     found as (
       select x.*, w.id as account,
              (select c.id from contacts c where c.waba_account_id = w.id
                  and (c.whatsapp_number = x.number or c.bsuid = x.bsuid or c.whatsapp_number = x.bsuid)
                order by c.whatsapp_number = x.number desc, c.id limit 1) as contact_id
         from x cross join waba_accounts w where w.waba_id = $1),
     added as (
       insert into inbound_messages (waba_account_id, wamid, from_number, contact_id, kind, body, sent_at)
       select account, wamid, coalesce(number, bsuid), contact_id, kind, body, sent_at from found
       on conflict (waba_account_id, wamid) do nothing
       returning id, waba_account_id, from_number, sent_at, wamid, contact_id)
     select a.id::int, a.waba_account_id::int, a.from_number, a.sent_at, a.wamid,
            coalesce(c.whatsapp_number, a.from_number) as address, c.previous_number, c.id::int as contact_id
       from added a left join contacts c on c.waba_account_id = a.waba_account_id and c.id = a.contact_id`,
    [
      change.wabaId,
      parsed.map((p) => p.m.id as string),
      parsed.map((p) => p.m.sender.number),
      parsed.map((p) => p.kind),
      parsed.map((p) => p.body),
      parsed.map((p) => sentAt(p.m.timestamp)),
      parsed.map((p) => p.m.sender.bsuid),
    ],
  );
  if (rows.length === 0) return;
  await recordInboundActivity(client, rows);
  const byWamid = new Map(parsed.map((p) => [p.m.id as string, p]));
  const pending = broadcastWrites(batch).replies;
  for (const row of rows) {
    const p = byWamid.get(row.wamid)!;
    pending.push({
      id: row.id,
      accountId: row.waba_account_id,
      number: row.address,
      previousNumber: row.previous_number,
      contactId: row.contact_id,
      sentAt: row.sent_at,
      contextWamid: str(p.m.context?.id) ?? (p.kind === 'reaction' ? str(p.m.reaction?.message_id) : null),
      press: PRESS_KINDS.includes(p.kind),
    });
  }
};

/** A contact who wrote in is active that hour (Active Contacts); numbers Herald does not know are not contacts. */
async function recordInboundActivity(
  client: PoolClient,
  rows: Array<{ id: number; waba_account_id: number; from_number: string; sent_at: Date }>,
): Promise<void> {
  await client.query(
    `select dashboard_activity(array_agg(i.waba_account_id), array_agg(i.sent_at), array_agg(i.from_number))
       from inbound_messages i where i.id = any($1::bigint[]) and i.contact_id is not null
     having count(*) > 0`,
    [rows.map((r) => r.id)],
  );
}
