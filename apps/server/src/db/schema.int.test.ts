import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, assert, beforeAll, describe, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../test-support/test-database';
import { buildSchemaText } from './schema-text';

const committedFile = path.join(import.meta.dirname, 'schema.sql');
const CONTEXT_LINES = 3;
const SHOWN_LINES = 12;

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

/** Where two texts first part, with a few lines of each from there; null when they are equal. */
function firstDifference(committed: string, migrated: string): string | null {
  if (committed === migrated) return null;
  const before = committed.split('\n');
  const after = migrated.split('\n');
  let line = 0;
  while (line < before.length && line < after.length && before[line] === after[line]) line += 1;
  const from = Math.max(0, line - CONTEXT_LINES);
  const show = (lines: string[]) =>
    lines
      .slice(from, line + SHOWN_LINES)
      .map((text, i) => `${String(from + i + 1).padStart(5)}${from + i === line ? ' >' : '  '} ${text}`)
      .join('\n');
  return [
    `apps/server/src/db/schema.sql is not what the migrations make: run \`npm run schema\` and commit the file.`,
    `First difference at line ${line + 1}.`,
    `schema.sql:\n${show(before)}`,
    `migrated database:\n${show(after)}`,
  ].join('\n\n');
}

describe('schema.sql', () => {
  it('is the schema the migrations make', async () => {
    const [committed, migrated] = await Promise.all([
      readFile(committedFile, 'utf8').catch(() => ''),
      buildSchemaText(db.url),
    ]);
    const difference = firstDifference(committed.replaceAll('\r\n', '\n'), migrated);
    if (difference !== null) assert.fail(difference);
  });
});
