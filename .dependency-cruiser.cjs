/**
 * The layering rules (npm run lint; docs/contexts.md, "Layering is checked"). Every rule is an error.
 *
 * - lib-order: a library imports only libraries below it in LIB_LAYERS (so no cycle between libraries).
 * - lib-through-index: another library is reached as `#app/<lib>`, its index.ts, never by path.
 * - lib-not-to-apps: a library's code imports no app, test or bench.
 * - rotas-area-order: the rota context's areas import each other one way only, as ROTA_AREAS lists.
 * - http-from-modules: a context's http/ is imported by its modules and index.ts only.
 * - handler-to-handler: no `*.command.ts` imports another; what handlers share lives in a file of its own.
 * - no-cycle: no import cycle inside a library.
 *
 * A library's tests (`*.spec.ts`, `*.int-spec.ts`) may use test/support and set up fixtures across rota
 * areas (as they may name any table: scripts/check-boundaries.mjs); every other rule holds for them too.
 */

/** Each library may import the libraries of the layers below its own; libraries of one layer, none of each other. */
const LIB_LAYERS = [
  ['platform'],
  ['event-store'],
  ['identity'],
  ['files'],
  ['organisation'],
  ['expenses', 'rotas'],
  ['webhooks', 'privacy'],
];

/**
 * The rota context's areas (libs/rotas/src/<area>/) and the areas each may import. http/ may import
 * every area; the modules and index.ts (the folder's top) may import anything. An area may import the
 * context's shared top files (ROTA_SHARED), which import only domain/.
 */
const ROTA_AREAS = {
  domain: [],
  booking: ['domain'],
  'shift-pattern': ['domain'],
  rota: ['domain', 'booking', 'shift-pattern'],
  views: ['domain', 'booking', 'shift-pattern'],
  'cover-alerts': ['domain', 'booking'],
  hours: ['domain', 'booking'],
  reminders: ['domain'],
  notifications: ['domain', 'booking', 'rota'],
  history: ['domain', 'booking', 'rota', 'shift-pattern'],
  'calendar-feed': ['domain', 'notifications'],
};
const ROTA_SHARED = ['rotas.events', 'rotas.policy', 'next-id'];

const TESTS = '\\.(spec|int-spec|e2e-spec)\\.ts$';
const ROTAS = '^libs/rotas/src/';
const any = (names) => `(${names.map((n) => n.replace(/\./g, '\\.')).join('|')})`;

const libOrder = LIB_LAYERS.flatMap((layer, rank) => {
  const notBelow = LIB_LAYERS.slice(rank).flat();
  return layer.map((lib) => ({
    name: 'lib-order',
    comment: `${lib} imports only ${LIB_LAYERS.slice(0, rank).flat().join(', ') || 'no library'} (LIB_LAYERS in .dependency-cruiser.cjs).`,
    severity: 'error',
    from: { path: `^libs/${lib}/` },
    to: { path: `^libs/${any(notBelow.filter((l) => l !== lib))}/` },
  }));
});

const rotaAreas = Object.entries(ROTA_AREAS).map(([area, uses]) => ({
  name: 'rotas-area-order',
  comment: `rotas/${area}/ imports only ${uses.map((u) => `${u}/`).join(', ') || 'no other area'} (docs/contexts.md, "Layout"; ROTA_AREAS).`,
  severity: 'error',
  from: { path: `${ROTAS}${area}/`, pathNot: TESTS },
  to: {
    path: `${ROTAS}([^/]+/|[^/]+\\.ts$)`,
    pathNot: `${ROTAS}(${any([area, ...uses])}/|${any(ROTA_SHARED)}\\.ts$)`,
  },
}));

module.exports = {
  forbidden: [
    ...libOrder,
    {
      name: 'lib-order',
      comment: 'A library not in LIB_LAYERS (.dependency-cruiser.cjs): add it to its layer.',
      severity: 'error',
      from: { path: '^libs/', pathNot: `^libs/${any(LIB_LAYERS.flat())}/` },
      to: {},
    },
    {
      name: 'lib-through-index',
      comment: "Another library is imported as '#app/<lib>' (its index.ts), never by path (docs/adr/0001).",
      severity: 'error',
      from: { path: '^libs/([^/]+)/' },
      to: { path: '^libs/[^/]+/', pathNot: ['^libs/$1/', '^libs/[^/]+/src/index\\.ts$'] },
    },
    {
      name: 'lib-through-index',
      comment: "Another library is imported as '#app/<lib>', not by a path to its index (docs/adr/0001).",
      severity: 'error',
      from: { path: '^libs/([^/]+)/' },
      to: { path: '^libs/[^/]+/src/index\\.ts$', pathNot: '^libs/$1/', dependencyTypesNot: ['aliased-subpath-import'] },
    },
    {
      name: 'lib-through-index',
      comment:
        "The apps and the tests import a library as '#app/<lib>' (bench/internals.ts alone measures the event store's insides).",
      severity: 'error',
      from: { path: '^(apps|test|bench)/', pathNot: '^bench/internals\\.ts$' },
      to: { path: '^libs/', pathNot: '^libs/[^/]+/src/index\\.ts$' },
    },
    {
      name: 'lib-not-to-apps',
      comment: "A library's code imports no app, test or bench code (its tests may use test/support).",
      severity: 'error',
      from: { path: '^libs/', pathNot: TESTS },
      to: { path: '^(apps|test|bench)/' },
    },
    ...rotaAreas,
    {
      name: 'rotas-area-order',
      comment: `A rota area not in ROTA_AREAS (.dependency-cruiser.cjs): add it with the areas it may import.`,
      severity: 'error',
      from: { path: `${ROTAS}[^/]+/`, pathNot: `${ROTAS}(${any(Object.keys(ROTA_AREAS))}|http)/` },
      to: {},
    },
    {
      name: 'rotas-area-order',
      comment: `The rota context's shared top files (ROTA_SHARED) import only domain/: every area uses them.`,
      severity: 'error',
      from: { path: `${ROTAS}${any(ROTA_SHARED)}\\.ts$` },
      to: { path: `${ROTAS}[^/]+/`, pathNot: `${ROTAS}domain/` },
    },
    {
      name: 'http-from-modules',
      comment:
        "A context's http/ (controllers, DTOs) is registered by its modules and its index.ts exports response shapes; no area imports it (platform's http/ is the conventions every context uses).",
      severity: 'error',
      from: {
        path: '^libs/([^/]+)/src/',
        pathNot: ['^libs/platform/', '^libs/[^/]+/src/http/', '^libs/[^/]+/src/([^/]+\\.module|index)\\.ts$'],
      },
      to: { path: '^libs/$1/src/http/' },
    },
    {
      name: 'handler-to-handler',
      comment:
        'A command handler imports no other handler: what two handlers share lives in a file of its own (issue 33).',
      severity: 'error',
      from: { path: '\\.command\\.ts$' },
      to: { path: '\\.command\\.ts$' },
    },
    // Per library: a cycle through other libraries breaks lib-order already, and is reported there.
    ...LIB_LAYERS.flat().map((lib) => ({
      name: 'no-cycle',
      comment: `No import cycle inside ${lib} (type-only imports included).`,
      severity: 'error',
      from: { path: `^libs/${lib}/` },
      to: { circular: true, viaOnly: { path: `^libs/${lib}/` } },
    })),
  ],
  options: {
    includeOnly: '^(libs|apps|test|bench)/',
    exclude: { path: '(^|/)(node_modules|dist)/' },
    // Type-only imports are arrows too: the layers hold for them.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // '#app/<lib>' resolves through package.json "imports" to the library's source index (the "types" condition).
    enhancedResolveOptions: {
      conditionNames: ['types', 'import', 'default'],
      exportsFields: ['exports'],
    },
  },
};
