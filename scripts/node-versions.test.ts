import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '..');
const lock = JSON.parse(readFileSync(path.join(repoRoot, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { engines?: { node?: string } }>;
};

describe('the supported Node versions', () => {
  // The oldest release of each line the root `engines` allows: `npm ci` on any of them must not warn.
  const supported = lock.packages['']?.engines?.node ?? '';
  const oldest = supported.split('||').map((range) => semver.minVersion(range.trim())?.version ?? range);

  it('are the three lines the README names', () => {
    expect(oldest).toEqual(['20.19.0', '22.13.0', '24.0.0']);
  });

  it('are accepted by every installed package that names its engines', () => {
    const refusing = Object.entries(lock.packages).flatMap(([where, entry]) => {
      const range = entry.engines?.node;
      if (!range || where === '') return [];
      return oldest
        .filter((version) => !semver.satisfies(version, range))
        .map((v) => `${where} (${range}) refuses ${v}`);
    });
    expect(refusing).toEqual([]);
  });
});
