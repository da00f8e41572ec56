// @ts-check
// ESLint for every JavaScript module. Formatting is prettier's job, so no style rules here.
import js from '@eslint/js';
import globals from 'globals';

export default [
  {
    ignores: ['site/', 'target/', 'node_modules/', 'www/pkg/', 'e2e/artifacts/', '**/*.d.ts'],
  },
  js.configs.recommended,
  { files: ['www/js/*.js', 'www/book.mjs', 'www/glossary.mjs'], languageOptions: { globals: globals.browser } },
  { files: ['www/sw.js'], languageOptions: { globals: globals.serviceworker } },
  // The page tests send some of their functions into the page: both sets of globals.
  { files: ['e2e/**/*.mjs', 'scripts/*.mjs', '*.mjs'], languageOptions: { globals: { ...globals.node, ...globals.browser } } },
  {
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', caughtErrors: 'none' }],
      eqeqeq: ['error', 'smart'],
      'no-var': 'error',
      'prefer-const': 'error',
    },
  },
];
