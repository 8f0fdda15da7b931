// `npm run schema`: migrates a scratch database and writes what it holds to apps/server/src/db/schema.sql
// (apps/server/src/db/schema-text.ts builds the text; schema.int.test.ts fails while the file is stale).
// The server is the integration suite's: DATABASE_URL (a role that may create databases), else the machine's
// Postgres on 127.0.0.1:5432, else an embedded one. The scratch database is dropped afterwards.
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { migrate } from '../apps/server/src/db/migrate';
import { buildSchemaText } from '../apps/server/src/db/schema-text';
import { adminQuery, openDatabaseServer, withDatabase } from '../test-support/database-server';

const target = path.join(import.meta.dirname, '../apps/server/src/db/schema.sql');

const server = await openDatabaseServer();
const scratch = `herald_schema_${randomBytes(4).toString('hex')}`;
try {
  await adminQuery(server.adminUrl, `create database ${scratch}`);
  try {
    const url = withDatabase(server.adminUrl, scratch);
    await migrate(url);
    await writeFile(target, await buildSchemaText(url));
  } finally {
    await adminQuery(server.adminUrl, `drop database if exists ${scratch} with (force)`);
  }
} finally {
  await server.stop();
}
console.log(`wrote ${path.relative(process.cwd(), target)} (Postgres: ${server.source})`);
