// Lint of the whole tree, run by `npm test` (CommonJS, so that a test can load it: scripts/lint-boundaries.test.ts). Beyond typescript-eslint's recommended rules it guards the repository's
// boundaries: a package is imported only through its exports map, and no app imports another app.
const js = require('@eslint/js');
const prettier = require('eslint-config-prettier');
const tseslint = require('typescript-eslint');

const deepImports = {
  group: ['@vf/*/src', '@vf/*/src/**', '**/packages/*/src/**', '**/apps/*/src/**'],
  message: "Import a workspace through its exports map ('@vf/<name>' or '@vf/<name>/testing'), never its files.",
};

/** The workspaces a part of the repository may not import at all. */
function forbidding(names, why) {
  return {
    'no-restricted-imports': [
      'error',
      {
        patterns: [deepImports, { group: names.flatMap((n) => [n, `${n}/**`]), message: why }],
      },
    ],
  };
}

const APPS = ['@vf/api', '@vf/worker', '@vf/authority-sim'];

module.exports = tseslint.config(
  { ignores: ['**/dist/', 'node_modules/', 'bench/results/', 'artifacts/', 'var/', 'coverage/', '**/*.d.ts', 'tmp-prof/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module' },
    rules: {
      'no-restricted-imports': ['error', { patterns: [deepImports] }],
      // A variable read by a callback defined before its one assignment (a late-bound reference) stays `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  // A test reads JSON answers loosely, as a client would.
  { files: ['**/*.test.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  { files: ['packages/**'], rules: forbidding([...APPS, '@vf/e2e'], 'A package never imports an app.') },
  {
    files: ['apps/api/**'],
    rules: forbidding(['@vf/worker', '@vf/authority-sim', '@vf/e2e'], 'No app imports another app; full-stack tests live in e2e/.'),
  },
  {
    files: ['apps/worker/**'],
    rules: forbidding(['@vf/api', '@vf/authority-sim', '@vf/e2e'], 'No app imports another app; full-stack tests live in e2e/.'),
  },
  {
    files: ['apps/authority-sim/**'],
    rules: forbidding(['@vf/api', '@vf/worker', '@vf/e2e'], 'No app imports another app; full-stack tests live in e2e/.'),
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['apps/api/assets/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: { document: 'readonly', window: 'readonly', navigator: 'readonly', fetch: 'readonly' },
    },
  },
);
