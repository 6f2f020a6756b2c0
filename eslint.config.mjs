// @ts-check
/**
 * Lint: typescript-eslint's type-checked recommended rules (promises that are dropped or handed
 * to callers that ignore them are errors) and import cycles. Formatting is Prettier's job
 * (`npm run format`), so no stylistic rules here.
 */
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig(
  { ignores: ['**/node_modules/', '**/dist/', 'coverage/', '.data/', 'test-output/'] },
  js.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: root } },
    plugins: { 'import-x': importX },
    settings: {
      // Without the TS extensions import-x parses only .js files and never sees a cycle here.
      'import-x/extensions': ['.ts', '.js', '.mjs', '.cjs'],
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: `${root}tsconfig.json` })],
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  { files: ['**/*.{js,cjs,mjs}'], languageOptions: { globals: globals.node } },
);
