import {
  type DashboardHeaderResponse,
  HEADER_EVENTS_SHOWN,
  type HeaderEventKind,
  type ImportResult,
} from '@herald/contracts';
import type { PoolClient } from 'pg';
import type { Pool } from '../../db/pool';
import { readShownAccountHealth } from '../account-health/index';
import { recordAccountEvent } from '../notifications/index';
import { readAccountSettings } from '../settings/index';

/**
 * The import's event for the bell and Recent Activity, in the import's transaction (so a rolled-back import
 * leaves none). Template and broadcast events are written by triggers (migration 015).
 */
export async function recordImportEvent(
  client: PoolClient,
  accountId: number,
  result: ImportResult,
  tag: string,
): Promise<void> {
  await recordAccountEvent(client, {
    accountId,
    kind: 'import_finished',
    title: 'Contacts imported',
    detail: `${result.created.toLocaleString('en-US')} created, ${result.updated.toLocaleString('en-US')} updated · tag ${tag}`,
  });
}

const TITLES: Record<HeaderEventKind, string> = {
  template_approved: 'Template approved',
  template_rejected: 'Template rejected',
  template_paused: 'Template paused',
  template_disabled: 'Template disabled',
  broadcast_completed: 'Broadcast completed',
  broadcast_waiting: 'Broadcast waiting',
  broadcast_paused: 'Broadcast paused',
  import_finished: 'Import finished',
  account_standing: 'Business account',
  account_alert: 'WhatsApp alert',
};

const linkOf = (kind: string, subject: number | null) =>
  kind.startsWith('template_')
    ? `/templates/${subject}`
    : kind.startsWith('broadcast_')
      ? `/broadcast/${subject}`
      : kind === 'account_standing' || kind === 'account_alert'
        ? '/number'
        : '/customers';

/** The Customers badge and the bell: the contact count, the latest events and how many the user has not seen. */
export async function readHeader(
  pool: Pool,
  accountId: number,
  userId: number,
): Promise<DashboardHeaderResponse> {
  const [contacts, events, unread, settings, health] = await Promise.all([
    pool.query<{ n: number }>(
      'select coalesce((select total from contact_counts where waba_account_id = $1), 0)::int as n',
      [accountId],
    ),
    pool.query<{
      id: number;
      kind: HeaderEventKind;
      subject_id: number | null;
      title: string;
      detail: string;
      at: Date;
      unread: boolean;
    }>(
      `select e.id::int, e.kind, e.subject_id::int, e.title, e.detail, e.at, e.at > coalesce(s.seen_up_to, '-infinity') as unread
         from account_events e
         left join account_events_seen s on s.user_id = $2 and s.waba_account_id = e.waba_account_id
        where e.waba_account_id = $1 order by e.at desc, e.id desc limit $3`,
      [accountId, userId, HEADER_EVENTS_SHOWN],
    ),
    unreadCount(pool, accountId, userId),
    readAccountSettings(pool, accountId),
    readShownAccountHealth(pool, accountId),
  ]);
  return {
    contacts: contacts.rows[0]!.n,
    events: events.rows.map((e) => ({
      id: e.id,
      kind: e.kind,
      // "Template approved: order_update"; the detail says why (a rejection's reason, an import's figures).
      title: `${TITLES[e.kind] ?? e.kind}: ${e.title}`,
      detail: e.detail,
      at: e.at.toISOString(),
      link: linkOf(e.kind, e.subject_id),
      unread: e.unread,
    })),
    unread,
    appearance: { dark_theme: settings.dark_theme, beta_features: settings.beta_features },
    ...(health && { account_health: health }),
  };
}

async function unreadCount(pool: Pool, accountId: number, userId: number): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `select count(*)::int as n from account_events e
      where e.waba_account_id = $1
        and e.at > coalesce((select seen_up_to from account_events_seen where user_id = $2 and waba_account_id = $1),
                            '-infinity')`,
    [accountId, userId],
  );
  return rows[0]!.n;
}

/** Marks the account's events up to `upTo` (now when absent) seen by the user; never moves the mark back. */
export async function markSeen(
  pool: Pool,
  accountId: number,
  userId: number,
  upTo?: string,
): Promise<number> {
  await pool.query(
    `insert into account_events_seen as s (user_id, waba_account_id, seen_up_to)
     values ($1, $2, least(coalesce(to_timestamp($3::float8), now()), now()))
     on conflict (waba_account_id, user_id) do update set seen_up_to = greatest(s.seen_up_to, excluded.seen_up_to)`,
    // As Unix seconds: zod takes offsets up to ±23:59 and year 0000, Postgres's text input neither; a mark later
    // than now is now.
    [userId, accountId, upTo === undefined ? null : Date.parse(upTo) / 1000],
  );
  return unreadCount(pool, accountId, userId);
}
