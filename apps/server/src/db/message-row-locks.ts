import type { PoolClient } from 'pg';

/** A message row's key: its business account first, then its id (decision 056). */
export interface MessageRowKey {
  accountId: number;
  id: number;
}

/**
 * Locks message rows in id order (the one order every writer of them uses, decision 022), in a statement of
 * their own. A writer that reads a row's state to decide its update must lock first and read after: in
 * READ COMMITTED the next statement's snapshot then sees every change committed before the locks were granted,
 * and nobody can change the rows until the transaction ends. Locking and updating in one statement instead
 * relies on PostgreSQL re-checking a row a concurrent writer changed meanwhile (EvalPlanQual); on PostgreSQL
 * 18, a FOR UPDATE over a join with a subquery dropped such rows from its result, and the update skipped them
 * (decision 067): a status webhook was lost whenever the sender wrote the same rows' results at that moment.
 */
export async function lockMessageRows(client: PoolClient, keys: MessageRowKey[]): Promise<void> {
  if (keys.length === 0) return;
  const sorted = [...keys].sort((a, b) => a.id - b.id);
  await client.query(
    `select 1 from broadcast_messages m
      where (m.waba_account_id, m.id) in (select * from unnest($1::bigint[], $2::bigint[]))
      order by m.id for update`,
    [sorted.map((k) => k.accountId), sorted.map((k) => k.id)],
  );
}
