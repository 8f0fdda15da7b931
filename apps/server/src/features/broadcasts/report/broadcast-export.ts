import { PassThrough, pipeline, type Readable } from 'node:stream';
import {
  BROADCAST_HISTORY_CSV_COLUMNS,
  BROADCAST_REPORT_CSV_COLUMNS,
  RECIPIENT_OUTCOME_NAMES,
  RECIPIENT_OUTCOMES,
  retargetStates,
  type BroadcastListQuery,
  type BroadcastReportQuery,
} from '@herald/contracts';
import { to as copyTo } from 'pg-copy-streams';
import type { Pool } from '../../../db/pool';
import type { OwnedWaba } from '../../../owned-waba';
import { allListedBroadcasts } from './broadcast-list';
import { csvLine, neutralisedSql, UTF8_BOM } from './csv-cells';
import { findReportedBroadcast } from './report-broadcast';

export type CsvDownload = { filename: string; body: string | Readable };

/**
 * The history's Export: every broadcast the list shows (date range, search, sort), one line each. An account has
 * broadcasts by the hundred, not the million, so the file is built whole; cells are neutralised (csv-cells.ts).
 */
export async function historyCsv(
  pool: Pool,
  waba: OwnedWaba,
  query: Omit<BroadcastListQuery, 'page'>,
): Promise<CsvDownload> {
  const rows = await allListedBroadcasts(pool, waba, query);
  const lines = rows.map((row) =>
    csvLine([
      row.id,
      row.name,
      row.template_name,
      row.scheduled,
      row.all_handed ? 'all handed to WhatsApp' : row.status,
      row.total_recipients,
      row.sent_percentage,
      row.handed_percentage,
      row.delivered_percentage,
      row.read_percentage,
      row.replied_percentage,
      row.failed_percentage,
    ]),
  );
  const range = query.from || query.to ? `-${query.from ?? 'start'}-to-${query.to ?? 'today'}` : '';
  return {
    filename: `herald-broadcasts${range}.csv`,
    body: UTF8_BOM + csvLine(BROADCAST_HISTORY_CSV_COLUMNS) + lines.join(''),
  };
}

const iso = (expression: string) => `to_char(${expression} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

/** A message state's outcome name in SQL, from the same table the report uses (contracts). */
const OUTCOME_SQL = `case m.state ${RECIPIENT_OUTCOME_NAMES.flatMap((outcome) =>
  RECIPIENT_OUTCOMES[outcome].map((state) => `when '${state}' then '${outcome}'`),
).join(' ')} else 'pending' end`;

/**
 * A delivery report's Export: every recipient under the report's filter (outcome, replied, clicked), by number as the report
 * pages them, STREAMED: COPY … TO STDOUT through one pooled connection, so the server holds a few chunks, never
 * the result, whatever the audience (bench/report-export.bench.ts). 404 for another account's broadcast.
 */
export async function reportCsv(
  pool: Pool,
  waba: OwnedWaba,
  id: number,
  query: Omit<BroadcastReportQuery, 'page'>,
): Promise<CsvDownload> {
  const broadcast = await findReportedBroadcast(pool, waba, id);
  // COPY takes no bind parameters: every value below is an integer, a boolean or a state name from contracts.
  const states =
    retargetStates(query.outcome)
      ?.map((s) => `'${s}'`)
      .join(', ') ?? null;
  const sql = `copy (
    select ${neutralisedSql('c.name')} as name, ${neutralisedSql('m.whatsapp_number')} as whatsapp_number,
           ${OUTCOME_SQL} as outcome, m.error_code, ${neutralisedSql('m.error_title')} as error_title,
           ${iso('greatest(m.accepted_at, m.delivered_at, m.read_at, m.failed_at, m.unknown_at)')} as last_update,
           ${neutralisedSql('coalesce(r.body, r.kind)')} as reply, ${iso('r.sent_at')} as replied_at
      from broadcast_messages m
      left join contacts c on c.waba_account_id = m.waba_account_id and c.id = m.contact_id
      left join inbound_messages r on r.waba_account_id = m.waba_account_id and r.id = m.reply_id
     where m.waba_account_id = ${Number(waba.id)} and m.broadcast_id = ${Number(broadcast.id)}
       ${states ? `and m.state in (${states})` : ''}
       ${query.replied === undefined ? '' : `and (m.reply_id is not null) = ${query.replied ? 'true' : 'false'}`}
       ${query.clicked === undefined ? '' : `and (m.clicked_at is not null) = ${query.clicked ? 'true' : 'false'}`}
     order by m.whatsapp_number
  ) to stdout with (format csv, header false)`;

  const client = await pool.connect();
  const body = new PassThrough();
  body.write(UTF8_BOM + csvLine(BROADCAST_REPORT_CSV_COLUMNS));
  let copy: Readable;
  try {
    copy = client.query(copyTo(sql));
  } catch (error) {
    client.release(error as Error);
    throw error;
  }
  // A download cut short leaves the COPY unfinished: that connection is dropped, not returned to the pool.
  pipeline(copy, body, (error) => client.release(error ?? undefined));
  const filter = [
    query.outcome,
    query.replied === undefined ? null : query.replied ? 'replied' : 'not-replied',
    query.clicked === undefined ? null : query.clicked ? 'clicked' : 'not-clicked',
  ]
    .filter(Boolean)
    .join('-');
  return { filename: `herald-report-${broadcast.id}${filter ? `-${filter}` : ''}.csv`, body };
}
