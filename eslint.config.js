// ESLint (flat config): the recommended rules over our JS (library, CLI, demo, tests, scripts),
// run by `npm test` (scripts/run-tests.mjs). Generated and vendored files are not ours to lint.
import js from '@eslint/js';
import globals from 'globals';

export default [
  { ignores: ['**/node_modules/**', '**/*.min.js', 'dist/**', 'demo/dist/**', 'build/**', 'tests/pack/tools/**', 'tests/e2e/screenshots/**'] },
  js.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: 'module',
      globals: { ...globals.node, ...globals.browser, ...globals.worker, ...globals.jest },
    },
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
];
