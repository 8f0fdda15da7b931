import { config } from 'zod';

// In a browser, zod probes whether it may compile parsers with `new Function`; under Herald's
// Content-Security-Policy (no 'unsafe-eval', decision 017) the probe itself is reported as a violation.
// Imported first by this package's index, so it holds before any schema here is built or used, whatever
// order the web build's chunks load in (apps/web/src/zod-without-eval.ts alone ran too late once the app
// was split into lazy chunks). The server keeps zod's compiled parsers.
if ('document' in globalThis) config({ jitless: true });
