import {
  CONTACT_BASE_COLUMNS,
  segmentDescription,
  type Segment,
  type SegmentCountResponse,
  type SegmentDefinition,
  type SegmentFieldsResponse,
  type SegmentNames,
  type SegmentRequest,
} from '@herald/contracts';
import type { PoolClient } from 'pg';
import type { Pool } from '../../db/pool';
import { HttpError } from '../../http-error';
import { MARKETS } from '../pricing/index';
import { segmentWhereSql } from './segment-sql';

type Queryable = Pool | PoolClient;

interface SegmentRow {
  id: number;
  name: string;
  definition: SegmentDefinition;
  created_at: Date;
  updated_at: Date;
}

const NOT_FOUND = 'This segment does not exist in this account';
const NAME_TAKEN = 'A segment with this name already exists';

/** Saved segments of a business account, their live count, and checking rules against the account. */
export class SegmentsService {
  constructor(private readonly pool: Pool) {}

  async list(accountId: number): Promise<Segment[]> {
    const { rows } = await this.pool.query<SegmentRow>(
      `select id::int, name, definition, created_at, updated_at from segments
        where waba_account_id = $1 order by lower(name), id`,
      [accountId],
    );
    const names = await segmentNames(
      this.pool,
      accountId,
      rows.map((row) => row.definition),
    );
    return rows.map((row) => present(row, names));
  }

  async get(accountId: number, id: number): Promise<Segment> {
    const row = await findSegment(this.pool, accountId, id);
    if (!row) throw HttpError.field(404, 'id', NOT_FOUND);
    return present(row, await segmentNames(this.pool, accountId, [row.definition]));
  }

  async create(accountId: number, request: SegmentRequest): Promise<Segment> {
    const names = await checkDefinition(this.pool, accountId, request.definition, 'definition');
    const row = await this.write(
      `insert into segments (waba_account_id, name, definition) values ($1, $2, $3)
       returning id::int, name, definition, created_at, updated_at`,
      [accountId, request.name, JSON.stringify(request.definition)],
    );
    return present(row!, names);
  }

  async update(accountId: number, id: number, request: SegmentRequest): Promise<Segment> {
    const names = await checkDefinition(this.pool, accountId, request.definition, 'definition');
    const row = await this.write(
      `update segments set name = $3, definition = $4, updated_at = now()
        where waba_account_id = $1 and id = $2
       returning id::int, name, definition, created_at, updated_at`,
      [accountId, id, request.name, JSON.stringify(request.definition)],
    );
    if (!row) throw HttpError.field(404, 'id', NOT_FOUND);
    return present(row, names);
  }

  async remove(accountId: number, id: number): Promise<void> {
    const { rowCount } = await this.pool.query(
      'delete from segments where waba_account_id = $1 and id = $2',
      [accountId, id],
    );
    if (!rowCount) throw HttpError.field(404, 'id', NOT_FOUND);
  }

  /** The live count: contacts matching the rules, and of them those a broadcast would reach (not opted out). */
  async count(accountId: number, definition: SegmentDefinition): Promise<SegmentCountResponse> {
    await checkDefinition(this.pool, accountId, definition, 'definition');
    const { rows } = await this.pool.query<SegmentCountResponse>(
      `select count(*)::int as matching, count(*) filter (where c.opted_out_at is null)::int as reachable
         from contacts c where c.waba_account_id = $1 and ${segmentWhereSql(definition, 'c')}`,
      [accountId],
    );
    return rows[0]!;
  }

  async fields(accountId: number): Promise<SegmentFieldsResponse> {
    const { rows } = await this.pool.query<{ name: string }>(
      'select name from contact_columns where waba_account_id = $1 order by name',
      [accountId],
    );
    return {
      columns: [
        ...CONTACT_BASE_COLUMNS.map((name) => ({ name, custom: false })),
        ...rows.map(({ name }) => ({ name, custom: true })),
      ],
      markets: [...MARKETS],
    };
  }

  /** An insert or update, a duplicate name answered as a 409 naming `name`. */
  private async write(sql: string, values: unknown[]): Promise<SegmentRow | undefined> {
    try {
      return (await this.pool.query<SegmentRow>(sql, values)).rows[0];
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw HttpError.field(409, 'name', NAME_TAKEN);
      throw error;
    }
  }
}

export async function findSegment(
  db: Queryable,
  accountId: number,
  id: number,
): Promise<SegmentRow | undefined> {
  const { rows } = await db.query<SegmentRow>(
    `select id::int, name, definition, created_at, updated_at from segments where waba_account_id = $1 and id = $2`,
    [accountId, id],
  );
  return rows[0];
}

function present(row: SegmentRow, names: SegmentNames): Segment {
  return {
    id: row.id,
    name: row.name,
    definition: row.definition,
    description: segmentDescription(row.definition, names),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The names of the tags and broadcasts the definitions name, from this account only. */
export async function segmentNames(
  db: Queryable,
  accountId: number,
  definitions: SegmentDefinition[],
): Promise<SegmentNames> {
  const tagIds = new Set<number>();
  const broadcastIds = new Set<number>();
  for (const rule of definitions.flatMap((definition) => definition.groups.flatMap((group) => group.rules))) {
    if (rule.kind === 'tags') rule.tag_ids.forEach((id) => tagIds.add(id));
    if (rule.kind === 'engagement' && rule.broadcast_id !== undefined) broadcastIds.add(rule.broadcast_id);
  }
  const [tags, broadcasts] = await Promise.all([
    tagIds.size
      ? db.query<{ id: number; name: string }>(
          'select id::int, name from tags where waba_account_id = $1 and id = any($2::bigint[])',
          [accountId, [...tagIds]],
        )
      : { rows: [] },
    broadcastIds.size
      ? db.query<{ id: number; name: string }>(
          'select id::int, name from broadcasts where waba_account_id = $1 and id = any($2::bigint[])',
          [accountId, [...broadcastIds]],
        )
      : { rows: [] },
  ]);
  return {
    tags: new Map(tags.rows.map((row) => [row.id, row.name])),
    broadcasts: new Map(broadcasts.rows.map((row) => [row.id, row.name])),
  };
}

/**
 * Refuses rules naming what this account does not have, naming the rule's field (under `prefix`): a tag or a
 * broadcast (404, as every object of another account, which is refused like one that never existed), a custom
 * column or a market (400). Answers the names of the tags and broadcasts it names, read for the check.
 */
export async function checkDefinition(
  db: Queryable,
  accountId: number,
  definition: SegmentDefinition,
  prefix: string,
): Promise<SegmentNames> {
  const rules = definition.groups.flatMap((group) => group.rules);
  const named = rules.flatMap((rule) => ('column' in rule ? [rule.column] : []));
  // The custom columns are read only when a rule names a column that is not a base one.
  const custom = named.some((column) => !(CONTACT_BASE_COLUMNS as readonly string[]).includes(column));
  const [names, { rows }] = await Promise.all([
    segmentNames(db, accountId, [definition]),
    custom
      ? db.query<{ name: string }>('select name from contact_columns where waba_account_id = $1', [accountId])
      : { rows: [] },
  ]);
  const columns = new Set<string>([...CONTACT_BASE_COLUMNS, ...rows.map((row) => row.name)]);
  const markets = new Set(MARKETS);
  definition.groups.forEach((group, g) =>
    group.rules.forEach((rule, r) => {
      const path = `${prefix}.groups.${g}.rules.${r}`;
      if (rule.kind === 'tags' && rule.tag_ids.some((id) => !names.tags.has(id)))
        throw HttpError.field(404, `${path}.tag_ids`, 'One or more tags do not exist in this account');
      if (
        (rule.kind === 'text' || rule.kind === 'number' || rule.kind === 'date') &&
        !columns.has(rule.column)
      )
        throw HttpError.field(400, `${path}.column`, `There is no column ${rule.column} in this account`);
      if (rule.kind === 'market') {
        const unknown = rule.markets.find((market) => !markets.has(market));
        if (unknown)
          throw HttpError.field(400, `${path}.markets`, `${unknown} is not one of Meta’s pricing markets`);
      }
      if (
        rule.kind === 'engagement' &&
        rule.broadcast_id !== undefined &&
        !names.broadcasts.has(rule.broadcast_id)
      )
        throw HttpError.field(404, `${path}.broadcast_id`, 'This broadcast does not exist in this account');
    }),
  );
  return names;
}
