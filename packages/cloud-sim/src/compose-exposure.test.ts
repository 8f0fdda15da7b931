import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// docker-compose.yml runs this sandbox beside Herald: what it publishes, and which secrets it would invent,
// decide who can reach the control API and sign in to a demonstration.
const composeFile = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../docker-compose.yml');
const compose = readFileSync(composeFile, 'utf8');

/** Each service's lines, by the two-space indentation compose files are written with. */
function services(): Map<string, string> {
  const body = compose.slice(compose.indexOf('\nservices:\n'));
  const blocks = new Map<string, string>();
  let name: string | null = null;
  for (const line of body.split('\n').slice(2)) {
    if (/^\S/.test(line)) break;
    const header = /^ {2}([\w-]+):/.exec(line);
    if (header) name = header[1]!;
    if (name !== null) blocks.set(name, `${blocks.get(name) ?? ''}${line}\n`);
  }
  return blocks;
}

describe('docker-compose.yml', () => {
  it("publishes the sandbox's port only under the demo profile", () => {
    const all = services();
    expect(all.get('sandbox')).toBeDefined();
    expect(all.get('sandbox')).not.toMatch(/^ {4}ports:/m);
    const publishing = [...all].filter(([, block]) => /^ {6}- '?(\d+\.\d+\.\d+\.\d+:)?8787:/m.test(block));
    expect(publishing.length).toBeGreaterThan(0);
    for (const [name, block] of publishing) expect(block, name).toMatch(/^ {4}profiles: \['demo'\]/m);
  });

  it('has no fallback passwords or secrets: it refuses to start without them', () => {
    for (const name of ['HERALD_OWNER_PASSWORD', 'HERALD_APP_PASSWORD', 'JWT_SECRET', 'ENCRYPTION_KEY']) {
      const uses = compose.match(new RegExp(`\\$\\{${name}[^}]*\\}`, 'g')) ?? [];
      expect(uses.length, name).toBeGreaterThan(0);
      for (const use of uses) expect(use, name).toMatch(new RegExp(`^\\$\\{${name}:\\?.+\\}$`));
    }
    expect(compose).not.toMatch(/demo-password|demo-only/);
  });
});
