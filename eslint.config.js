import js from '@eslint/js';
import globals from 'globals';

export default [
  { ignores: ['bindings/wasm/generated/**', 'dist/**', 'build/**', 'node_modules/**', 'test-results/**'] },
  js.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: { 'no-unused-vars': ['error', { argsIgnorePattern: '^_' }] },
  },
  { files: ['web/runtime/**/*.js'], languageOptions: { globals: globals.browser } },
  { files: ['web/static/**/*.js'], languageOptions: { sourceType: 'script', globals: globals.browser } },
  { files: ['web/builder/**', 'tests/**', 'bench/**', 'bindings/wasm/*.mjs', 'eslint.config.js'], languageOptions: { globals: globals.node } },
  { files: ['tests/browser/**', 'bench/*_browser_bench.mjs'], languageOptions: { globals: { ...globals.node, ...globals.browser } } },
];
