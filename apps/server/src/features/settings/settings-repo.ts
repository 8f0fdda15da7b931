import {
  DEFAULT_ACCOUNT_SETTINGS,
  type AccountSettings,
  type AccountSettingsUpdate,
} from '@herald/contracts';
import type { PoolClient } from 'pg';
import type { Pool } from '../../db/pool';

type Queryable = Pool | PoolClient;

const COLUMNS = `default_language, require_template_approval, notify_by_email, retention_years::int,
  dark_theme, beta_features`;

/** The account's stored settings, or the defaults when it never saved any (no row yet). */
export async function readAccountSettings(db: Queryable, wabaAccountId: number): Promise<AccountSettings> {
  const { rows } = await db.query<AccountSettings>(
    `select ${COLUMNS} from account_settings where waba_account_id = $1`,
    [wabaAccountId],
  );
  return rows[0] ?? { ...DEFAULT_ACCOUNT_SETTINGS };
}

/**
 * Stores the given settings and leaves the others as they are; answers the whole stored row. The row is
 * created with the migration's defaults first, so a first save of one option stores the defaults for the rest.
 */
export async function saveAccountSettings(
  db: Queryable,
  wabaAccountId: number,
  update: AccountSettingsUpdate,
): Promise<AccountSettings> {
  await db.query(
    'insert into account_settings (waba_account_id) values ($1) on conflict (waba_account_id) do nothing',
    [wabaAccountId],
  );
  const { rows } = await db.query<AccountSettings>(
    `update account_settings set
       default_language = coalesce($2, default_language),
       require_template_approval = coalesce($3, require_template_approval),
       notify_by_email = coalesce($4, notify_by_email),
       retention_years = coalesce($5, retention_years),
       dark_theme = coalesce($6, dark_theme),
       beta_features = coalesce($7, beta_features),
       updated_at = now()
     where waba_account_id = $1
     returning ${COLUMNS}`,
    [
      wabaAccountId,
      update.default_language ?? null,
      update.require_template_approval ?? null,
      update.notify_by_email ?? null,
      update.retention_years ?? null,
      update.dark_theme ?? null,
      update.beta_features ?? null,
    ],
  );
  return rows[0]!;
}
