import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MESSAGE_STATES, MESSAGE_TRANSITIONS } from '@herald/contracts';
import { describe, expect, it } from 'vitest';

const serverSrc = path.join(import.meta.dirname, '..', '..');
const here = path.relative(serverSrc, import.meta.dirname);

/** Production TypeScript files of the server (test code as dependency-cruiser names it is left out). */
function productionFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    const relative = path.relative(serverSrc, full);
    if (entry.isDirectory()) {
      return /^(fault-suite|security-suite)$/.test(relative) ? [] : productionFiles(full);
    }
    return /\.ts$/.test(entry.name) && !/(\.test\.ts|-test-helpers\.ts)$/.test(entry.name) ? [relative] : [];
  });
}

const WRITE = /\b(update|insert\s+into|delete\s+from)\s+broadcast_messages\b/i;

describe('message-rows: the one writer of broadcast_messages', () => {
  it('no other production file inserts, updates or deletes message rows', () => {
    const writers = productionFiles(serverSrc).filter((file) =>
      WRITE.test(readFileSync(path.join(serverSrc, file), 'utf8')),
    );
    expect(writers.length).toBeGreaterThan(0);
    const owner = path.join(here, 'message-rows');
    expect(
      writers.filter((file) => file !== `${owner}.ts` && !file.startsWith(`${owner}${path.sep}`)),
    ).toEqual([]);
  });

  it("contracts' states are the table's (its check constraint in schema.sql)", () => {
    const schema = readFileSync(path.join(serverSrc, 'db', 'schema.sql'), 'utf8');
    const check =
      /CONSTRAINT broadcast_messages_state_check CHECK \(\(state = ANY \(ARRAY\[(.*?)\]\)\)\)/.exec(schema);
    expect(check).not.toBeNull();
    const states = [...check![1]!.matchAll(/'([a-z_]+)'::text/g)].map((m) => m[1]);
    expect([...states].sort()).toEqual([...MESSAGE_STATES].sort());
    expect(Object.keys(MESSAGE_TRANSITIONS).sort()).toEqual([...MESSAGE_STATES].sort());
  });
});
