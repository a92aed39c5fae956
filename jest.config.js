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
  testTimeout: 30_000,
  maxWorkers: 2,
  // A worker holding more than this after a test file is replaced by a fresh one: the embedded databases and
  // module registries of earlier files are not always given back, and one worker once grew past 10 GB.
  workerIdleMemoryLimit: '1536MB',
  // PGlite's wasm runtime and fetch's keep-alive pool can hold the event loop after the last test; never let that hang CI.
  forceExit: true,
};
