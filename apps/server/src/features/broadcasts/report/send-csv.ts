import type { FastifyReply } from 'fastify';
import type { CsvDownload } from './broadcast-export';

/** A CSV download: UTF-8, saved under the export's file name, never cached (it is the account's data). */
export function sendCsv(reply: FastifyReply, csv: CsvDownload) {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${csv.filename}"`)
    .header('cache-control', 'no-store')
    .send(csv.body);
}
