/** Jest runs TypeScript through esbuild, file by file (tsc --noEmit does the type check
 * once, in `npm test`), and maps @notify/* to the packages' sources so no build step
 * is needed. Unit tests live beside the code; integration tests under test/. */
const moduleNameMapper = {
  '^@notify/([a-z-]+)$': '<rootDir>/packages/$1/src/index.ts',
  // A package's test peers sit behind their own entry point, never in its index.
  '^@notify/([a-z-]+)/testing$': '<rootDir>/packages/$1/src/testing/index.ts',
};
const transform = { '^.+\\.ts$': '<rootDir>/test/harness/esbuild-transform.js' };
// Every file notes the processes it starts (the run's teardown kills any left behind) and shares one initdb.
const setupFiles = ['<rootDir>/test/harness/run-setup-file.ts'];
const base = { testEnvironment: 'node', moduleNameMapper, transform, setupFiles, moduleFileExtensions: ['ts', 'js', 'json'] };

module.exports = {
  projects: [
    { ...base, displayName: 'unit', testMatch: ['<rootDir>/packages/*/src/**/*.test.ts', '<rootDir>/apps/*/src/**/*.test.ts'] },
    // globalSetup installs (or names) the machine binaries the harness starts, once per run.
    { ...base, displayName: 'integration', testMatch: ['<rootDir>/test/**/*.test.ts'], globalSetup: '<rootDir>/test/harness/global-setup.ts' },
  ],
  // Once per run, around every project: where test files note their children, and the kill of what is left.
  globalSetup: '<rootDir>/test/harness/run-setup.ts',
  globalTeardown: '<rootDir>/test/harness/run-teardown.ts',
  // Longest files first, also on a clean clone (no recorded durations): the workers end together.
  testSequencer: '<rootDir>/test/harness/slow-first-sequencer.js',
  // Integration tests wait on real processes; testTimeout is global in Jest (not per project).
  testTimeout: 120000,
};
