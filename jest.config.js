/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
        // Keep import() as a real dynamic import: the wasm schema engine is ESM only.
        module: { type: 'commonjs', ignoreDynamic: true },
      },
    ],
  },
  globalSetup: '<rootDir>/test/helpers/globalSetup.ts',
  globalTeardown: '<rootDir>/test/helpers/globalTeardown.ts',
  // Fails a test whose requests got a response its OpenAPI document does not describe (test/helpers/openapiContract.ts).
  setupFilesAfterEnv: ['<rootDir>/test/helpers/contractViolations.ts'],
  testTimeout: 30_000,
  maxWorkers: 2,
  // A worker runs test file after test file, each evaluating the modules afresh. Two things kept every earlier
  // file's module graph alive, with its closed embedded databases (about 250 MB of wasm memory each): prom-client's
  // GC observer, started on import of src/metrics.ts (now collectProcessMetrics, called by the service at start),
  // and V8's compilation cache, which gives a later file's scripts an earlier file's dynamic-import callback (so
  // `npm test` runs node with --no-compilation-cache). A worker grew past 10 GB, and a last worker holding
  // gigabytes took longer than jest's half second to exit ("A worker process has failed to exit gracefully").
  // A backstop: a worker whose JS heap (the wasm memory is outside it) exceeds this after a file is replaced.
  workerIdleMemoryLimit: '1536MB',
};
