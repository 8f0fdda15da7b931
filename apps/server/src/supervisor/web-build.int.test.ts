import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildWeb, webBuildIsStale } from './web-build';

// Two starts that find the build stale at once (two `npm start`s, the browser tests' stacks) each build it: both
// must succeed and leave one whole build, where two builds into one folder failed on each other's files.
let parent: string;

beforeAll(async () => {
  parent = await mkdtemp(path.join(os.tmpdir(), 'herald-web-build-'));
});
afterAll(() => rm(parent, { recursive: true, force: true }));

it('two builds at once both succeed and leave one whole build, nothing else', async () => {
  const distDir = path.join(parent, 'dist');
  expect(webBuildIsStale(distDir)).toBe(true);

  const logs: string[] = [];
  await Promise.all([
    buildWeb(distDir, (line) => logs.push(line)),
    buildWeb(distDir, (line) => logs.push(line)),
  ]);

  expect(readdirSync(parent)).toEqual(['dist']);
  expect(existsSync(path.join(distDir, 'index.html'))).toBe(true);
  const assets = readdirSync(path.join(distDir, 'assets'));
  expect(assets.some((file) => file.endsWith('.js.br'))).toBe(true);
  expect(webBuildIsStale(distDir)).toBe(false);

  // Built again over a whole build: the old one is replaced, not left beside it.
  await buildWeb(distDir, (line) => logs.push(line));
  expect(readdirSync(parent)).toEqual(['dist']);
  expect(existsSync(path.join(distDir, 'index.html'))).toBe(true);
}, 120_000);
