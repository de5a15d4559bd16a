import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

import { importBoundaries } from './eslint/import-boundaries.js';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  ...tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      globals: globals.node,
      parserOptions: { project: ['./tsconfig.tests.json'], tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
      // Bracket access is how index-signature records (process.env, JSON) are read on purpose.
      '@typescript-eslint/dot-notation': 'off',
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
    },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { boundaries: importBoundaries },
    rules: { 'boundaries/imports': 'error' },
  },
  {
    // Runtime code stays small enough to read and review: files under 400 lines, functions under 60.
    // Tests, test support and the dev-time tools (outside src/) are not bound.
    files: ['packages/*/src/**/*.{ts,tsx}', 'examples/*/src/**/*.ts'],
    ignores: ['**/*.test.{ts,tsx}', '**/*.bench.ts', '**/test-support/**', 'packages/testing/**'],
    rules: { 'max-lines': ['error', 399], 'max-lines-per-function': ['error', 59] },
  },
  {
    files: ['**/*.test.ts', '**/test-support/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // CommonJS modules (the client's Node 18 `require` check) load others with require().
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
