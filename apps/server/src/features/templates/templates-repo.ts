import type { PoolClient } from 'pg';
import type { Pool } from '../../db/pool';

type Queryable = Pool | PoolClient;

export interface TemplateRow {
  id: number;
  meta_template_id: string | null;
  name: string;
  language: string;
  category: string;
  status: string;
  rejected_reason: string | null;
  quality_score: string | null;
  quality_score_date: Date | null;
  components: unknown[];
  static_variables: Record<string, unknown>;
  dynamic_variables: Record<string, unknown>;
  media_id: number | null;
  updated_at: Date;
  rejection_detail: string | null;
  rejection_recommendation: string | null;
  locked: boolean;
  flagged_at: Date | null;
  pending_category: string | null;
  pending_category_at: Date | null;
  message_send_ttl_seconds: number | null;
  max_price_bid_amount: number | null;
}

const COLUMNS = `id::int, meta_template_id, name, language, category, status, rejected_reason, quality_score,
  quality_score_date, components, static_variables, dynamic_variables, media_id::int, updated_at,
  rejection_detail, rejection_recommendation, locked, flagged_at, pending_category, pending_category_at,
  message_send_ttl_seconds, max_price_bid_amount`;

export type TemplateSort = 'latest' | 'oldest' | 'name';

const ORDER: Record<TemplateSort, string> = {
  latest: 'updated_at desc, id desc',
  oldest: 'updated_at asc, id asc',
  name: 'name asc, language asc, id asc',
};

export async function listTemplates(
  db: Queryable,
  wabaAccountId: number,
  options: { page: number; pageSize: number; search?: string; sort: TemplateSort },
): Promise<{ count: number; rows: TemplateRow[] }> {
  const search = options.search?.trim() ? `%${options.search.trim().replace(/[\\%_]/g, '\\$&')}%` : null;
  const where = 'waba_account_id = $1 and ($2::text is null or name ilike $2)';
  const [count, rows] = await Promise.all([
    db.query<{ count: number }>(`select count(*)::int as count from templates where ${where}`, [
      wabaAccountId,
      search,
    ]),
    db.query<TemplateRow>(
      `select ${COLUMNS} from templates where ${where} order by ${ORDER[options.sort]} limit $3 offset $4`,
      [wabaAccountId, search, options.pageSize, (options.page - 1) * options.pageSize],
    ),
  ]);
  return { count: count.rows[0]!.count, rows: rows.rows };
}

/** One of the account's templates, by Herald's id or by Meta's. */
async function findTemplateBy(
  db: Queryable,
  wabaAccountId: number,
  column: 'id' | 'meta_template_id',
  value: number | string,
): Promise<TemplateRow | undefined> {
  const { rows } = await db.query<TemplateRow>(
    `select ${COLUMNS} from templates where waba_account_id = $1 and ${column} = $2`,
    [wabaAccountId, value],
  );
  return rows[0];
}

export function findTemplate(
  db: Queryable,
  wabaAccountId: number,
  id: number,
): Promise<TemplateRow | undefined> {
  return findTemplateBy(db, wabaAccountId, 'id', id);
}

export function findTemplateByMetaId(
  db: Queryable,
  wabaAccountId: number,
  metaTemplateId: string,
): Promise<TemplateRow | undefined> {
  return findTemplateBy(db, wabaAccountId, 'meta_template_id', metaTemplateId);
}

export interface TemplateWrite {
  name: string;
  language: string;
  category: string;
  status: string;
  metaTemplateId: string | null;
  components: unknown[];
  staticVariables: unknown;
  dynamicVariables: unknown;
  mediaId: number | null;
  /** Null: Meta's default for the category. */
  timeToLiveSeconds?: number | null;
  /** Meta's bid_amount (US cents per 1,000 deliveries); null: the rate card. */
  maxPriceBidAmount?: number | null;
}

export async function insertTemplate(
  db: Queryable,
  wabaAccountId: number,
  t: TemplateWrite,
): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `insert into templates (waba_account_id, name, language, category, status, meta_template_id, components,
                            static_variables, dynamic_variables, media_id, message_send_ttl_seconds,
                            max_price_bid_amount)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) returning id::int`,
    [
      wabaAccountId,
      t.name,
      t.language,
      t.category,
      t.status,
      t.metaTemplateId,
      JSON.stringify(t.components),
      JSON.stringify(t.staticVariables ?? {}),
      JSON.stringify(t.dynamicVariables ?? {}),
      t.mediaId,
      t.timeToLiveSeconds ?? null,
      t.maxPriceBidAmount ?? null,
    ],
  );
  return rows[0]!.id;
}

export async function updateTemplate(
  db: Queryable,
  wabaAccountId: number,
  id: number,
  t: TemplateWrite,
): Promise<void> {
  await db.query(
    `update templates set name = $3, language = $4, category = $5, status = $6, meta_template_id = $7,
            components = $8, static_variables = $9, dynamic_variables = $10, media_id = coalesce($11, media_id),
            message_send_ttl_seconds = $12, max_price_bid_amount = $13,
            rejected_reason = null, rejection_detail = null, rejection_recommendation = null, updated_at = now()
      where waba_account_id = $1 and id = $2`,
    [
      wabaAccountId,
      id,
      t.name,
      t.language,
      t.category,
      t.status,
      t.metaTemplateId,
      JSON.stringify(t.components),
      JSON.stringify(t.staticVariables ?? {}),
      JSON.stringify(t.dynamicVariables ?? {}),
      t.mediaId,
      t.timeToLiveSeconds ?? null,
      t.maxPriceBidAmount ?? null,
    ],
  );
}

/** When Meta last said the account reached its template limit (LIMIT_EXCEEDED), if it ever did. */
export async function templateLimitExceededAt(db: Queryable, wabaAccountId: number): Promise<Date | null> {
  const { rows } = await db.query<{ at: Date | null }>(
    'select template_limit_exceeded_at as at from waba_accounts where id = $1',
    [wabaAccountId],
  );
  return rows[0]?.at ?? null;
}

/**
 * The account is no longer known to be at its template limit: Meta took a new template or deleted one. The next
 * LIMIT_EXCEEDED sets it again.
 */
export async function clearTemplateLimitExceeded(db: Queryable, wabaAccountId: number): Promise<void> {
  await db.query(
    'update waba_accounts set template_limit_exceeded_at = null where id = $1 and template_limit_exceeded_at is not null',
    [wabaAccountId],
  );
}

export async function deleteTemplate(db: Queryable, wabaAccountId: number, id: number): Promise<void> {
  await db.query('delete from templates where waba_account_id = $1 and id = $2', [wabaAccountId, id]);
}

export async function insertMedia(
  db: Queryable,
  wabaAccountId: number,
  file: { name: string; type: string; bytes: Buffer; headerHandle: string | null },
): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `insert into template_media (waba_account_id, file_name, mime_type, size_bytes, content, header_handle)
     values ($1, $2, $3, $4, $5, $6) returning id::int`,
    [wabaAccountId, file.name, file.type, file.bytes.length, file.bytes, file.headerHandle],
  );
  return rows[0]!.id;
}

export async function findMedia(
  db: Queryable,
  wabaAccountId: number,
  mediaId: number,
): Promise<{ file_name: string; mime_type: string; content: Buffer } | undefined> {
  const { rows } = await db.query<{ file_name: string; mime_type: string; content: Buffer }>(
    'select file_name, mime_type, content from template_media where waba_account_id = $1 and id = $2',
    [wabaAccountId, mediaId],
  );
  return rows[0];
}
