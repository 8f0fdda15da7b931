import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import type { Plugin, ProxyOptions } from 'vite';

// In development the SPA talks to the API server on its own port; in production the server serves
// the built SPA itself, so these paths are same-origin there.
const apiTarget = `http://127.0.0.1:${process.env.PORT ?? 3000}`;
const proxiedPaths = ['/api', '/meta', '/recipient', '/broadcast', '/healthz', '/webhooks'];

const proxy: ProxyOptions = {
  target: apiTarget,
  changeOrigin: true,
  // /broadcast and /broadcast/new are also SPA routes: a browser navigation (reload, typed URL) asks
  // for HTML and must get the app, while the API calls under the same prefix go to the server.
  bypass: (req) => (req.headers.accept?.includes('text/html') ? '/index.html' : undefined),
};

const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|map)$/;
// Below about one TCP packet compression gains nothing; @fastify/static then sends the plain file.
const MIN_COMPRESS_BYTES = 1024;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const full = path.join(dir, entry.name);
      return entry.isDirectory() ? filesUnder(full) : Promise.resolve([full]);
    }),
  );
  return nested.flat();
}

/**
 * Writes `<file>.br` and `<file>.gz` next to every text asset of the build, once, at the best
 * settings (a build can afford brotli 11; a request cannot). The server sends them with `preCompressed`
 * (apps/server/src/plugins/spa.ts) by the browser's Accept-Encoding, so no request compresses anything.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'herald-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const brotli = promisify(brotliCompress);
      const gz = promisify(gzip);
      const files = (await filesUnder(outDir)).filter((file) => COMPRESSIBLE.test(file));
      await Promise.all(
        files.map(async (file) => {
          if ((await stat(file)).size < MIN_COMPRESS_BYTES) return;
          const content = await readFile(file);
          const [br, gzipped] = await Promise.all([
            brotli(content, {
              params: {
                [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
                [zlib.BROTLI_PARAM_SIZE_HINT]: content.length,
              },
            }),
            gz(content, { level: zlib.Z_BEST_COMPRESSION }),
          ]);
          await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gzipped)]);
        }),
      );
    },
  };
}

function reactRouterDir(): string {
  return path.dirname(createRequire(import.meta.url).resolve('react-router/package.json'));
}

export default defineConfig(({ command }) => ({
  plugins: [react(), tailwindcss(), precompress()],
  resolve: {
    // react-router 7 points every export condition at its development build (remix-run/react-router#12532,
    // #14102): dev-only warnings and checks would ship to users. The production build beside it has the same
    // API; use it for `vite build` only, so tests and the dev server keep the warnings.
    alias:
      command === 'build'
        ? [{ find: /^react-router$/, replacement: path.join(reactRouterDir(), 'dist/production/index.mjs') }]
        : [],
  },
  build: {
    outDir: 'dist',
    // Every browser the app supports has <link rel="modulepreload">: the polyfill would be dead weight.
    modulePreload: { polyfill: false },
  },
  server: {
    proxy: Object.fromEntries(proxiedPaths.map((path) => [path, proxy])),
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    // vitest's default on a 2-core machine is one file at a time; two cut the suite by about a third.
    maxWorkers: 2,
    // Files share their worker's modules and jsdom instead of setting both up again each (decision 097).
    isolate: false,
    // Its own place in a run of every project at once (vitest runs projects of one groupOrder together only
    // when their maxWorkers agree).
    sequence: { groupOrder: 1 },
  },
}));
