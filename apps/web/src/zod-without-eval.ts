import { config } from 'zod';

// Zod compiles fast object parsers with `new Function`, and first probes whether it may: under Herald's
// Content-Security-Policy (no 'unsafe-eval') the probe itself makes the browser report a violation. Parsing
// without that compilation is what the policy allows. Loaded from index.html before the app's own entry, so
// it holds before any schema of @herald/contracts is built.
config({ jitless: true });
