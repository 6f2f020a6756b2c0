// @ts-check
/**
 * Lint: typescript-eslint's type-checked recommended rules (promises that are dropped or handed
 * to callers that ignore them are errors) and import cycles. Formatting is Prettier's job
 * (`npm run format`), so no stylistic rules here.
 *
 * Speed: type-aware rules need the whole TypeScript program, so a full run costs about what
 * `tsc --noEmit` costs plus the rules. `npm run lint` caches results per file in
 * node_modules/.cache/eslint (the cache is keyed on file content and this config; a file whose
 * imports changed type but whose own text did not keeps its cached result until it is edited,
 * or until `npx eslint .` runs without the cache, which is what a clean CI clone does).
 */
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = fileURLToPath(new URL('.', import.meta.url));

/** Test code: jest test files beside the code, and everything under test/ (harness and tests). */
const TEST_FILES = ['**/*.test.ts', 'test/**/*.ts'];

export default defineConfig(
  // Build and run output, never hand-written.
  { ignores: ['**/node_modules/', '**/dist/', '**/coverage/', '**/.data/', '**/test-output/'] },
  // A disable comment that no longer suppresses anything is an error, so they do not pile up.
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    // The one root tsconfig.json holds every .ts file (apps, packages, test, bench, scripts): one
    // program for the whole run. Naming it directly rather than `projectService: true` gave the
    // same findings for 20-30 % less CPU and 300 MB less memory here (two runs each);
    // a .ts file outside its `include` is a parse error, which keeps tsc and lint on the same files.
    languageOptions: { parserOptions: { project: `${root}tsconfig.json`, tsconfigRootDir: root } },
    plugins: { 'import-x': importX },
    settings: {
      // Without the TS extensions import-x parses only .js files and never sees a cycle here.
      'import-x/extensions': ['.ts', '.js', '.mjs', '.cjs'],
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: `${root}tsconfig.json` })],
      // import-x forgets a parsed module after 30 s by default (meant for editors); one CLI run
      // never needs to re-read a file, and re-parsing made no-cycle a large share of the run.
      'import-x/cache': { lifetime: Infinity },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // Run-time cycles. import-x skips `import type`; scripts/check-import-cycles.ts (also in
      // `npm run lint`) counts those too.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // A leading underscore marks a parameter kept for its position (Express knows an error
      // handler by its four parameters) or a property taken out of an object so that the rest
      // can be used (`const { a: _a, ...rest } = x`).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // Off: an `async` method without `await` is how this code implements a Promise-returning
      // contract (a no-op gate, an in-memory fake); `async` also turns a throw into a rejection,
      // which dropping it to please the rule would change. Dropped promises are caught by
      // no-floating-promises and no-misused-promises, which stay on.
      '@typescript-eslint/require-await': 'off',
      // As only-throw-error does by default: handing on a value typed any/unknown (an AbortSignal's
      // reason, an error caught from elsewhere) forwards what someone else threw; rejecting with a
      // string or a plain object is still an error.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
      // Services log through pino (style.md, logging); console output is for a CLI or a test
      // that says why in a disable comment.
      'no-console': 'error',
    },
  },
  {
    files: TEST_FILES,
    rules: {
      // supertest's `res.body`, `JSON.parse` and jest's matchers hand tests `any` by design; the
      // tests check those values with assertions (or parse them with the zod schemas), which is
      // what these rules would otherwise ask for. Promise rules stay on in tests.
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // A *.test.ts file is never imported, so it cannot be part of a cycle; every cycle among the
    // files it imports is found when those files are linted. Skipping it saves the graph walk.
    files: ['**/*.test.ts'],
    rules: { 'import-x/no-cycle': 'off' },
  },
  {
    // Benchmarks are command-line programs whose output is their result.
    files: ['bench/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
  { files: ['**/*.{js,cjs,mjs}'], languageOptions: { globals: globals.node } },
);
