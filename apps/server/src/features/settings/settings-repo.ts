import {
  DEFAULT_ACCOUNT_SETTINGS,
  replyWordKey,
  type AccountSettings,
  type AccountSettingsUpdate,
} from '@herald/contracts';
import type { PoolClient } from 'pg';
import type { Pool } from '../../db/pool';

type Queryable = Pool | PoolClient;

const COLUMNS = `default_language, require_template_approval, notify_by_email, retention_years::int,
  dark_theme, beta_features, opt_out_words, opt_in_words, marketing_via_mm_api, frequency_cap_messages,
  frequency_cap_days`;

type StoredSettings = Omit<AccountSettings, 'opt_out_words' | 'opt_in_words'> & {
  opt_out_words: string[] | null;
  opt_in_words: string[] | null;
};

/** A stored row as the settings it means: a reply-word list never set is Herald's default one. */
const withDefaults = (row: StoredSettings): AccountSettings => ({
  ...row,
  opt_out_words: row.opt_out_words ?? DEFAULT_ACCOUNT_SETTINGS.opt_out_words,
  opt_in_words: row.opt_in_words ?? DEFAULT_ACCOUNT_SETTINGS.opt_in_words,
});

/** The account's stored settings, or the defaults when it never saved any (no row yet). */
export async function readAccountSettings(db: Queryable, wabaAccountId: number): Promise<AccountSettings> {
  const { rows } = await db.query<StoredSettings>(
    `select ${COLUMNS} from account_settings where waba_account_id = $1`,
    [wabaAccountId],
  );
  return rows[0] ? withDefaults(rows[0]) : { ...DEFAULT_ACCOUNT_SETTINGS };
}

/**
 * The replies that opt a contact out of the account the webhook entry names (its WABA id), and back in, as
 * replyWordKey keys: the account's lists, or Herald's defaults.
 */
export async function readReplyWords(
  db: Queryable,
  wabaId: string,
): Promise<{ optOut: Set<string>; optIn: Set<string> }> {
  const { rows } = await db.query<{ opt_out_words: string[] | null; opt_in_words: string[] | null }>(
    `select s.opt_out_words, s.opt_in_words from waba_accounts w
       left join account_settings s on s.waba_account_id = w.id where w.waba_id = $1`,
    [wabaId],
  );
  const row = rows[0];
  return {
    optOut: new Set((row?.opt_out_words ?? DEFAULT_ACCOUNT_SETTINGS.opt_out_words).map(replyWordKey)),
    optIn: new Set((row?.opt_in_words ?? DEFAULT_ACCOUNT_SETTINGS.opt_in_words).map(replyWordKey)),
  };
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
  const { rows } = await db.query<StoredSettings>(
    `update account_settings set
       default_language = coalesce($2, default_language),
       require_template_approval = coalesce($3, require_template_approval),
       notify_by_email = coalesce($4, notify_by_email),
       retention_years = coalesce($5, retention_years),
       dark_theme = coalesce($6, dark_theme),
       beta_features = coalesce($7, beta_features),
       opt_out_words = coalesce($8, opt_out_words),
       opt_in_words = coalesce($9, opt_in_words),
       marketing_via_mm_api = coalesce($10, marketing_via_mm_api),
       -- Null is a value here (no cap): set when the update names it.
       frequency_cap_messages = case when $12 then $11::int else frequency_cap_messages end,
       frequency_cap_days = coalesce($13, frequency_cap_days),
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
      update.opt_out_words ?? null,
      update.opt_in_words ?? null,
      update.marketing_via_mm_api ?? null,
      update.frequency_cap_messages ?? null,
      update.frequency_cap_messages !== undefined,
      update.frequency_cap_days ?? null,
    ],
  );
  return withDefaults(rows[0]!);
}
