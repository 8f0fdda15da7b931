// Module boundaries, checked by `depcruise` in `npm test`'s lint step (decision 071).
// Source trees: apps/server/src, apps/web/src, packages/*/src. Test code is *.test.ts(x), *-test-helpers.ts,
// the server's fault and security suites and the web app's src/test/; everything else there is production code.
const SRC = '^(apps/(server|web)/src|packages/[^/]+/src)/';
const TEST_CODE = [
  '^apps/web/src/features/[^/]+/test/',
  '\\.test\\.tsx?$',
  '-test-helpers\\.tsx?$',
  '^apps/server/src/(fault-suite|security-suite)/',
  '^apps/web/src/test/',
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment:
        'An import cycle: move the shared part down (packages/contracts or a lower module), or invert the call ' +
        '(the lower module exposes a registration the upper one fills in). Type-only imports count too.',
      severity: 'error',
      from: { path: SRC },
      to: { circular: true },
    },
    {
      name: 'server-feature-through-index',
      comment:
        "A server feature reaches another feature only through that feature's index.ts: export what you need " +
        'there instead of importing its internals.',
      severity: 'error',
      from: { path: '^apps/server/src/features/([^/]+)/', pathNot: TEST_CODE },
      to: {
        path: '^apps/server/src/features/[^/]+/',
        pathNot: ['^apps/server/src/features/$1/', '^apps/server/src/features/[^/]+/index\\.ts$'],
      },
    },
    {
      name: 'web-feature-not-app',
      comment:
        'Web features, lib/ and components/ never import the app shell (app/): move what they need to lib/.',
      severity: 'error',
      from: { path: '^apps/web/src/(features|lib|components)/' },
      to: { path: '^apps/web/src/app/' },
    },
    {
      name: 'web-feature-through-index',
      comment:
        "A web feature imports lib/, components/ and another feature only through that feature's index.ts(x).",
      severity: 'error',
      from: { path: '^apps/web/src/features/([^/]+)/', pathNot: TEST_CODE },
      to: {
        path: '^apps/web/src/features/[^/]+/',
        pathNot: ['^apps/web/src/features/$1/', '^apps/web/src/features/[^/]+/index\\.tsx?$'],
      },
    },
    {
      name: 'web-lib-not-features',
      comment:
        'lib/ and components/ sit below the features: they never import one. Let the feature register what ' +
        'lib/ needs, or move the shared part into lib/.',
      severity: 'error',
      from: { path: '^apps/web/src/(lib|components)/' },
      to: { path: '^apps/web/src/features/' },
    },
    {
      name: 'no-test-helpers-in-production',
      comment:
        'Production code never imports test helpers (test-support/, e2e/, *-test-helpers, the fault and ' +
        'security suites, web src/test/); only tests (*.test.ts, *.int.test.ts) and other test helpers may.',
      severity: 'error',
      from: { path: SRC, pathNot: TEST_CODE },
      to: { path: ['^(test-support|e2e)/', ...TEST_CODE] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['(^|/)node_modules/', '(^|/)dist/'] },
    // Count `import type` too: a cycle of types is still a tangle, and it costs nothing to see them.
    tsPreCompilationDeps: true,
    // ES modules only (every package is "type": "module"): no CommonJS or AMD detection to pay for.
    moduleSystems: ['es6'],
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    cache: false,
  },
};
