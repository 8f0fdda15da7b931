import type { HeaderEventKind } from '@herald/contracts';
import type { PoolClient } from 'pg';

/** One entry of the bell and Recent Activity (`account_events`), written in the transaction of what caused it. */
export interface AccountEvent {
  accountId: number;
  kind: HeaderEventKind;
  title: string;
  detail: string;
  /** The template or broadcast it is about, for its link. */
  subjectId?: number;
  /**
   * Written only if the account has no entry of the same kind, title and detail from the last day: for what Meta
   * may deliver twice (at least once) and that has no state of its own to compare.
   */
  oncePerDay?: boolean;
}

/**
 * Writes a bell entry. The one way features other than the triggers' (template and broadcast changes, migration
 * 015) add to the bell.
 */
export async function recordAccountEvent(client: PoolClient, event: AccountEvent): Promise<void> {
  await client.query(
    `insert into account_events (waba_account_id, kind, subject_id, title, detail)
     select $1, $2, $3, $4, $5
      where not $6 or not exists (
        select 1 from account_events e
         where e.waba_account_id = $1 and e.kind = $2 and e.title = $4 and e.detail = $5
           and e.at > now() - interval '1 day')`,
    [
      event.accountId,
      event.kind,
      event.subjectId ?? null,
      event.title,
      event.detail,
      event.oncePerDay ?? false,
    ],
  );
}
