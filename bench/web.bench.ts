// First load of the web app: builds it as `npm start` does, serves the build from the real server (the
// same static plugin, precompressed files and cache headers as production) and opens each screen in headless
// Chromium, signed in through the API. Per route: the gzip bytes of the JavaScript and CSS the page loaded, the
// bytes that crossed the network, and the time until the screen is interactive, with a cold cache (a fresh
// browser context) and a warm one (the same route again in that context). Goals: sign-in ≤ 100 KB of gzip
// JavaScript, every screen interactive ≤ 1 s cold. Then the sign-in itself, cold: the JavaScript the sign-in screen
// fetches while the user types (the app it opens next) and after the click, and the time from the click until the
// Dashboard is interactive. `BENCH_RUNS` (default 5) loads per route; medians are shown.
// `BENCH_WEB_DIST=<folder>` measures that build instead of building one.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { type BrowserContext, chromium, type Response } from 'playwright-core';
import { migrate } from '../apps/server/src/db/migrate';
import { makeBusiness } from '../test-support/business';
import { startTestApp } from '../test-support/test-app';
import { createScratchDatabase } from '../test-support/database-server';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SIGN_IN_BUDGET_GZIP_BYTES = 100 * 1024;
const INTERACTIVE_BUDGET_MS = 1000;
const repoRoot = path.resolve(import.meta.dirname, '..');

/** The screens, each with the h1 that says it has rendered. */
const ROUTES: Array<{ name: string; path: string; heading: string; signedIn: boolean }> = [
  { name: 'sign-in', path: '/', heading: 'Sign in', signedIn: false },
  { name: 'dashboard', path: '/dashboard', heading: 'Dashboard', signedIn: true },
  { name: 'customers', path: '/customers', heading: 'Customers', signedIn: true },
  { name: 'templates', path: '/template', heading: 'Your Templates', signedIn: true },
  { name: 'new-template', path: '/template/create-template', heading: 'Create Template', signedIn: true },
  { name: 'broadcast-history', path: '/broadcast', heading: 'Broadcast History', signedIn: true },
  { name: 'new-broadcast', path: '/broadcast/new', heading: 'New Broadcast', signedIn: true },
  { name: 'numbers', path: '/number', heading: 'WhatsApp Numbers', signedIn: true },
  { name: 'settings', path: '/settings', heading: 'Settings', signedIn: true },
];

type Load = {
  js_gzip_bytes: number;
  css_gzip_bytes: number;
  js_files: number;
  network_bytes: number;
  interactive_ms: number;
};

type Session = { accessToken: string; refreshToken: string; wabas: unknown[] };

/** The bench business's sign-in. */
const CREDENTIALS = { email: 'bench@example.com', password: 'bench-password-1' };

type SignIn = {
  js_gzip_bytes_while_typing: number;
  js_gzip_bytes_after_click: number;
  click_to_dashboard_ms: number;
};

function buildWeb(outDir: string): void {
  const result = spawnSync(
    process.execPath,
    [
      path.join(repoRoot, 'node_modules/vite/bin/vite.js'),
      'build',
      '--outDir',
      outDir,
      '--emptyOutDir',
      '--logLevel',
      'warn',
    ],
    { cwd: path.join(repoRoot, 'apps/web'), stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (result.status !== 0) throw new Error(`web build exited with ${result.status}`);
}

/** A business signed up as the Embedded Signup would (sandbox WABA, then the callback), then logged in. */
async function signUpAndLogIn(api: string, sandbox: string): Promise<Session> {
  const { session } = await makeBusiness(
    { url: api, sandboxUrl: sandbox },
    { ...CREDENTIALS, businessName: 'Bench Shop' },
  );
  return session as Session;
}

/**
 * Before any script of the page: the stored session the sign-in page would have saved (redux-persist keeps each
 * field JSON-encoded), and a promise that resolves with `performance.now()` once the route's h1 is on screen and
 * the main thread is free to answer input (a message posted then is handled: no task still blocks it).
 */
function pageSetup({ heading, session }: { heading: string; session: Session | null }) {
  if (session) {
    const persisted = (state: Record<string, unknown>) =>
      JSON.stringify({
        ...Object.fromEntries(Object.entries(state).map(([key, value]) => [key, JSON.stringify(value)])),
        _persist: JSON.stringify({ version: -1, rehydrated: true }),
      });
    localStorage.setItem(
      'persist:auth',
      persisted({ accessToken: session.accessToken, refreshToken: session.refreshToken }),
    );
    localStorage.setItem(
      'persist:waba',
      persisted({ wabaAccounts: session.wabas, selectedWabaAccount: session.wabas[0] ?? null }),
    );
  }
  (window as unknown as { __interactive: Promise<number> }).__interactive = new Promise<number>((resolve) => {
    const observer = new MutationObserver(check);
    function check() {
      const h1 = document.querySelector('h1');
      if (h1?.textContent?.trim() !== heading) return;
      observer.disconnect();
      const channel = new MessageChannel();
      channel.port1.onmessage = () => resolve(performance.now());
      channel.port2.postMessage(null);
    }
    observer.observe(document, { childList: true, subtree: true, characterData: true });
  });
}

async function load(context: BrowserContext, url: string): Promise<Load> {
  const page = await context.newPage();
  const pending: Array<Promise<void>> = [];
  const totals = { js_gzip_bytes: 0, css_gzip_bytes: 0, js_files: 0, network_bytes: 0 };
  page.on('response', (response) => {
    const request = response.request();
    const type = request.resourceType();
    pending.push(
      (async () => {
        const sizes = await request.sizes().catch(() => null);
        totals.network_bytes += sizes ? sizes.responseBodySize + sizes.responseHeadersSize : 0;
        if (type !== 'script' && type !== 'stylesheet') return;
        const gzipBytes = await scriptGzipBytes(response);
        if (type === 'script') {
          totals.js_gzip_bytes += gzipBytes;
          totals.js_files += 1;
        } else totals.css_gzip_bytes += gzipBytes;
      })(),
    );
  });
  await page.goto(url, { waitUntil: 'load' });
  const interactive = await page.evaluate(
    (limit) =>
      Promise.race([
        (window as unknown as { __interactive: Promise<number> }).__interactive,
        new Promise<number>((_, reject) =>
          setTimeout(() => reject(new Error(`no interactive heading within ${limit} ms`)), limit),
        ),
      ]),
    15_000,
  );
  // Lazy chunks may still be arriving after `load`: let them, then count everything the page asked for.
  await page.waitForLoadState('networkidle');
  await Promise.all(pending);
  await page.close();
  return { ...totals, interactive_ms: Number(interactive.toFixed(1)) };
}

/** What a script response weighs gzipped at the build's level, whichever encoding (or the cache) delivered it. */
async function scriptGzipBytes(response: Response): Promise<number> {
  return gzipSync(await response.body(), { level: 9 }).length;
}

/**
 * Signs in through the form in a fresh context (the page was set up with 'Dashboard' as its heading): the
 * JavaScript fetched once the sign-in screen is interactive and before the click (the app, fetched ahead while
 * the user types), the JavaScript after the click, and the click-to-interactive-Dashboard time.
 */
async function signInThroughForm(context: BrowserContext, base: string): Promise<SignIn> {
  const page = await context.newPage();
  const pending: Array<Promise<void>> = [];
  const totals = { typing: 0, afterClick: 0 };
  let phase: 'loading' | 'typing' | 'afterClick' = 'loading';
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script' || phase === 'loading') return;
    const counted = phase;
    pending.push(scriptGzipBytes(response).then((bytes) => void (totals[counted] += bytes)));
  });
  await page.goto(`${base}/`, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
  phase = 'typing';
  await page.getByLabel('Username').fill(CREDENTIALS.email);
  await page.getByLabel('Password').fill(CREDENTIALS.password);
  // A person takes seconds to type: whatever the screen fetched meanwhile has arrived.
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(200);
  phase = 'afterClick';
  const clickedAt = await page.evaluate(() => performance.now());
  await page.getByRole('button', { name: 'Sign in' }).click();
  const interactiveAt = await page.evaluate(
    () => (window as unknown as { __interactive: Promise<number> }).__interactive,
  );
  await page.waitForLoadState('networkidle');
  await Promise.all(pending);
  await page.close();
  return {
    js_gzip_bytes_while_typing: totals.typing,
    js_gzip_bytes_after_click: totals.afterClick,
    click_to_dashboard_ms: Number((interactiveAt - clickedAt).toFixed(1)),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function summary(loads: Load[]) {
  return {
    js_gzip_kb: Number((median(loads.map((l) => l.js_gzip_bytes)) / 1024).toFixed(1)),
    css_gzip_kb: Number((median(loads.map((l) => l.css_gzip_bytes)) / 1024).toFixed(1)),
    js_files: median(loads.map((l) => l.js_files)),
    network_kb: Number((median(loads.map((l) => l.network_bytes)) / 1024).toFixed(1)),
    interactive_ms: median(loads.map((l) => l.interactive_ms)),
    interactive_max_ms: Math.max(...loads.map((l) => l.interactive_ms)),
  };
}

// BENCH_WEB_DIST measures a build made elsewhere (e.g. an older commit's, to compare) instead of building now.
const givenDist = process.env.BENCH_WEB_DIST;
const distDir = givenDist
  ? path.resolve(givenDist)
  : await mkdtemp(path.join(os.tmpdir(), 'herald-web-bench-'));
const database = await createScratchDatabase(`herald_bench_web_${process.pid}`);
const url = database.url;
try {
  const buildStarted = performance.now();
  if (!givenDist) buildWeb(distDir);
  const buildSeconds = (performance.now() - buildStarted) / 1000;

  await migrate(url);
  const t = await startTestApp(
    { WEB_DIST_DIR: distDir, ACCESS_TOKEN_TTL_SECONDS: '86400' },
    { database: { url, poolSize: 10 } },
  );
  const base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  const session = await signUpAndLogIn(base, t.sandboxUrl);

  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
  const routes: Record<string, { cold: ReturnType<typeof summary>; warm: ReturnType<typeof summary> }> = {};
  const signIns: SignIn[] = [];
  try {
    for (const route of ROUTES) {
      const cold: Load[] = [];
      const warm: Load[] = [];
      for (let run = 0; run < RUNS; run++) {
        // A fresh context has an empty HTTP cache: the first load is cold, the same URL again is warm.
        const context = await browser.newContext();
        // tsx compiles this file keeping function names, through a `__name` helper the page does not have.
        await context.addInitScript({ content: 'globalThis.__name = (fn) => fn;' });
        await context.addInitScript(pageSetup, {
          heading: route.heading,
          session: route.signedIn ? session : null,
        });
        cold.push(await load(context, `${base}${route.path}`));
        warm.push(await load(context, `${base}${route.path}`));
        await context.close();
      }
      routes[route.name] = { cold: summary(cold), warm: summary(warm) };
    }
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext();
      await context.addInitScript({ content: 'globalThis.__name = (fn) => fn;' });
      await context.addInitScript(pageSetup, { heading: 'Dashboard', session: null });
      signIns.push(await signInThroughForm(context, base));
      await context.close();
    }
  } finally {
    await browser.close();
    await t.close();
  }

  const signInJs = routes['sign-in']!.cold.js_gzip_kb * 1024;
  const slowest = Math.max(...Object.values(routes).map((r) => r.cold.interactive_ms));
  console.log(
    JSON.stringify({
      benchmark: 'web',
      runs_per_route: RUNS,
      build_seconds: givenDist ? null : Number(buildSeconds.toFixed(1)),
      dist: givenDist ?? 'built now',
      routes,
      sign_in_cold: {
        js_gzip_kb_while_typing: Number(
          (median(signIns.map((s) => s.js_gzip_bytes_while_typing)) / 1024).toFixed(1),
        ),
        js_gzip_kb_after_click: Number(
          (median(signIns.map((s) => s.js_gzip_bytes_after_click)) / 1024).toFixed(1),
        ),
        click_to_dashboard_ms: median(signIns.map((s) => s.click_to_dashboard_ms)),
        click_to_dashboard_max_ms: Math.max(...signIns.map((s) => s.click_to_dashboard_ms)),
      },
      goals: {
        sign_in_js_gzip_kb: Number((signInJs / 1024).toFixed(1)),
        sign_in_js_within_100_kb: signInJs <= SIGN_IN_BUDGET_GZIP_BYTES,
        slowest_cold_interactive_ms: slowest,
        every_screen_interactive_within_1_s_cold: slowest <= INTERACTIVE_BUDGET_MS,
      },
    }),
  );
} finally {
  await database.drop();
  if (!givenDist) await rm(distDir, { recursive: true, force: true });
}
