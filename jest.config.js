import vm from 'node:vm';

/**
 * Jest 30 loads an ES module that CommonJS require()s natively where Node can evaluate one
 * synchronously (vm modules with hasAsyncGraph: Node 24.9+, jest-runtime's `supportsSyncEvaluate`).
 * Before that it cannot, and content-disposition must be compiled to CommonJS (below); after it,
 * compiling would break it (the compiled CommonJS is then evaluated as a module: "exports is not
 * defined").
 */
const requiresEsmNatively = typeof vm.SourceTextModule?.prototype.hasAsyncGraph === 'function';

/**
 * Jest 30 + ts-jest in native ESM mode (run with NODE_OPTIONS=--experimental-vm-modules, see the
 * npm scripts). Three tiers by file name: *.spec.ts (unit), *.int-spec.ts (Postgres),
 * *.e2e-spec.ts (the whole app over HTTP). Each file gets its own database, so files run in parallel.
 * @type {import('jest').Config}
 */
export default {
  testEnvironment: 'node',
  rootDir: '.',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/test'],
  testRegex: '.*\\.(spec|int-spec|e2e-spec)\\.ts$',
  moduleFileExtensions: ['ts', 'js', 'json'],
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }],
    // @fastify/static (CommonJS, used by the docs page) require()s content-disposition 3, which is
    // ESM-only. Node 20.19+ allows that; Jest before Node 24.9 does not, so there Jest compiles that
    // package to CommonJS itself.
    ...(requiresEsmNatively
      ? {}
      : {
          '/node_modules/content-disposition/.+\\.js$': [
            'ts-jest',
            { tsconfig: { allowJs: true, isolatedModules: true } },
          ],
        }),
  },
  ...(requiresEsmNatively ? {} : { transformIgnorePatterns: ['/node_modules/(?!content-disposition/)'] }),
  moduleNameMapper: {
    '^#app/(.*)$': '<rootDir>/libs/$1/src/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  // A test during which the service broke its OpenAPI document fails (test/support/openapi-contract.ts).
  setupFilesAfterEnv: ['<rootDir>/test/support/openapi-contract.setup.ts'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 60_000,
  maxWorkers: 2,
  // A worker ends a full run holding 1.8–3 GB of heap, and Node takes 0.7–1.1 s to tear that down
  // after its event loop has emptied (README, "The two commands"). Jest's default grace
  // of 500 ms then reports 'a worker process has failed to exit gracefully' with nothing open. A
  // handle left open (socket, server, interval) still keeps a worker past 3 s, and Jest still warns.
  workerGracefulExitTimeout: 3_000,
};
