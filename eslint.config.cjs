// Lint of the whole tree, run by `npm test` (CommonJS, so that a test can load it: scripts/lint-boundaries.test.ts). Beyond typescript-eslint's recommended rules it guards the repository's
// boundaries: a package is imported only through its exports map, no app imports another app, SQL is written only in
// packages/db (its stores), the chain writer (packages/chain) knows nothing of HTTP, the dashboard (packages/dashboard)
// reaches data only through what the API hands it, and what the API's services take and answer is written once, in
// packages/contract.
const fs = require('node:fs');
const path = require('node:path');
const js = require('@eslint/js');
const prettier = require('eslint-config-prettier');
const tseslint = require('typescript-eslint');

const deepImports = {
  group: ['@vf/*/src', '@vf/*/src/**', '**/packages/*/src/**', '**/apps/*/src/**'],
  message: "Import a workspace through its exports map ('@vf/<name>' or '@vf/<name>/testing'), never its files.",
};

/** The query builder and the driver: what writes SQL. */
const sqlOutsideDb = {
  group: ['drizzle-orm', 'drizzle-orm/**', 'pg', 'pg/**'],
  message: 'SQL lives in packages/db: add or use a store of @vf/db (a test may set its data up directly).',
};

// The schema's tables: with one, a query is built without importing drizzle-orm (db.select().from(table)). Read from
// the schema's sources, so a new table is fenced at once; scripts/lint-boundaries.test.ts holds the list to the tables
// @vf/db exports.
const schemaDir = path.join(__dirname, 'packages/db/src/schema');
const SCHEMA_TABLES = fs
  .readdirSync(schemaDir)
  .filter((f) => f.endsWith('.ts'))
  .flatMap((f) => [...fs.readFileSync(path.join(schemaDir, f), 'utf8').matchAll(/export const (\w+) = pgTable\(/g)].map((m) => m[1]));
const tablesOutsideDb = {
  name: '@vf/db',
  importNames: SCHEMA_TABLES,
  message: 'The tables are for the stores of packages/db: call a store (a test may set its data up directly).',
};

/**
 * The workspaces a part of the repository may not import at all, and with `sql` neither the query builder, the driver
 * nor a table; `also`: more restricted patterns.
 */
function forbidding(names, why, { sql = false, also = [] } = {}) {
  return {
    'no-restricted-imports': [
      'error',
      {
        paths: sql ? [tablesOutsideDb] : [],
        patterns: [deepImports, { group: names.flatMap((n) => [n, `${n}/**`]), message: why }, ...(sql ? [sqlOutsideDb] : []), ...also],
      },
    ],
  };
}

// Tests (and their helpers) set data up and look at it directly; the code they test goes through the stores.
const TESTS = ['**/*.test.ts', '**/testing/**'];
// The steps of one invoice's path whose one file passes 400 lines (docs/decisions/0073-one-invoice-in-twenty-files.md).
const TRACE_STEPS_OVER_400 = [
  'packages/chain/src/append/append-attempts.ts',
  'packages/chain/src/records/chain-record-row.ts',
  'packages/db/src/stores/chain-append-write-store.ts',
  'packages/db/src/stores/send-state-store.ts',
  'apps/worker/src/jobs/send-chain-job.ts',
];

/** `files` fenced off `names`; their code (not their tests, nor `sqlAllowed`) also off SQL. */
function fenced(files, names, why, sqlAllowed = []) {
  return [
    { files, rules: forbidding(names, why) },
    { files, ignores: [...TESTS, ...sqlAllowed], rules: forbidding(names, why, { sql: true }) },
  ];
}

// The API's answers, written once (packages/contract): read from its index, so a type added there is fenced at once.
const CONTRACT_TYPES = [
  ...fs.readFileSync(path.join(__dirname, 'packages/contract/src/index.ts'), 'utf8').matchAll(/export type \{([^}]*)\}/g),
].flatMap((m) =>
  m[1]
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean),
);
const contractTypeNamed = `/^(${CONTRACT_TYPES.join('|')})$/`;
const TYPE_DECLARATIONS = ['TSInterfaceDeclaration', 'TSTypeAliasDeclaration'];
const contractCopies = TYPE_DECLARATIONS.map((node) => ({
  selector: `${node}[id.name=${contractTypeNamed}]`,
  message: "This is one of the API's shapes (what it takes or answers): import it from @vf/contract rather than declaring a copy.",
}));
const noContractCopies = { 'no-restricted-syntax': ['error', ...contractCopies] };
// The workspaces that read the contract (their build references it): none of them declares a type of its names.
const CONTRACT_READERS = ['apps', 'packages']
  .flatMap((dir) => fs.readdirSync(path.join(__dirname, dir)).map((name) => `${dir}/${name}`))
  .filter((ws) => {
    const build = path.join(__dirname, ws, 'tsconfig.build.json');
    return fs.existsSync(build) && fs.readFileSync(build, 'utf8').includes('packages/contract/');
  })
  .map((ws) => `${ws}/**`);
// The dashboard names no type of its own after what the API takes or answers (a body, a result, an answer, a report):
// such a shape is the API's, and belongs in @vf/contract, where the API's services declare themselves with it.
const apiShapeNamed = '/(Body|Request|Result|Answer|Report|Response)$/';
const noApiShapesInDashboard = {
  'no-restricted-syntax': [
    'error',
    ...contractCopies,
    ...TYPE_DECLARATIONS.map((node) => ({
      // A contract name is reported once, as a copy.
      selector: `${node}[id.name=${apiShapeNamed}]:not([id.name=${contractTypeNamed}])`,
      message: "This names what the API takes or answers: declare it in @vf/contract (the API's services use it too) and import it.",
    })),
  ],
};

const APPS = ['@vf/api', '@vf/worker', '@vf/authority-sim'];

// Inside the API, the layers every feature uses (the OpenAPI assembly, authentication, health, errors, HTTP plumbing)
// never import a feature nor the composition root: a feature hands them what they need (create-app.ts lists the
// features' operations for the OpenAPI document).
const API_LOWER_LAYERS = ['openapi', 'auth', 'health', 'errors', 'http', 'shared', 'idempotency'].map((d) => `apps/api/src/${d}/**`);
const API_FEATURES = [
  'account',
  'admin',
  'chain',
  'dashboard',
  'invoices',
  'metrics',
  'qr',
  'systems',
  'taxpayers',
  'verification',
  'webhooks',
];
const upIntoFeatures = {
  group: [...API_FEATURES.flatMap((f) => [`**/${f}/*`, `**/${f}/**`]), '**/create-app', '**/compose'],
  message: 'A lower layer of the API imports no feature: the feature passes what it needs (see create-app.ts).',
};

module.exports = tseslint.config(
  {
    ignores: [
      '**/dist/',
      'clients/typescript/esm/',
      'clients/typescript/cjs/',
      'node_modules/',
      'bench/results/',
      'artifacts/',
      'var/',
      'coverage/',
      '**/*.d.ts',
      'tmp-prof/',
    ],
  },
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
  // Sizes (issue 30): no source file over 400 lines, no function over 80. Every line counts, comments and blank lines
  // too: the limits are what a reader scrolls through, and prettier, not the author, decides the blank lines. Tests,
  // their helpers (testing/), the full-stack tests (e2e/) and the load harness (bench/) are not the service's code: a
  // test's describe block groups its cases and is as long as they are.
  {
    files: ['apps/**', 'packages/**', 'scripts/**', 'clients/**'],
    ignores: TESTS,
    rules: {
      'max-lines': ['error', { max: 400 }],
      'max-lines-per-function': ['error', { max: 80 }],
    },
  },
  // The authority's error table is data transcribed entry by entry from its published file, kept whole in the
  // published order (docs/decisions/0031-authority-error-table-kept-whole.md); its functions still count.
  { files: ['packages/core/src/authority-codes/aeat-error-table.ts'], rules: { 'max-lines': 'off' } },
  // One invoice's path in 20 files (issue 30): a step's file holds the whole step, and where that passes 400 lines it
  // is named here, with the ceiling it must keep (docs/decisions/0073-one-invoice-in-twenty-files.md).
  { files: TRACE_STEPS_OVER_400, rules: { 'max-lines': ['error', { max: 520 }] } },
  // Generated from the OpenAPI document (npm run client:generate).
  { files: ['clients/typescript/src/generated/openapi.ts'], rules: { 'max-lines': 'off' } },
  // A test reads JSON answers loosely, as a client would.
  { files: ['**/*.test.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  // The TypeScript client is published on its own (npm: verifactu-client): it knows the service only by its API.
  { files: ['clients/**'], rules: forbidding(['@vf/*'], "The client is published on its own: it never imports the service's code.") },
  ...fenced(['packages/**'], [...APPS, '@vf/e2e'], 'A package never imports an app.', ['packages/db/**']),
  // The chain writer (packages/chain) knows nothing of HTTP: it returns refusals of its own, which the API answers as
  // problems in one place (apps/api/src/invoices/invoice-registration-service.ts). SQL only through the stores of @vf/db.
  ...fenced(
    ['packages/chain/**'],
    [...APPS, '@vf/e2e', 'express', 'supertest'],
    'The chain writer imports no app and knows nothing of HTTP (no express): it returns its own refusals.',
  ),
  ...fenced(['apps/api/**'], ['@vf/worker', '@vf/authority-sim', '@vf/e2e'], 'No app imports another app; full-stack tests live in e2e/.'),
  {
    files: API_LOWER_LAYERS,
    ignores: TESTS,
    rules: forbidding(['@vf/worker', '@vf/authority-sim', '@vf/e2e'], 'No app imports another app; full-stack tests live in e2e/.', {
      sql: true,
      also: [upIntoFeatures],
    }),
  },
  ...fenced(['apps/worker/**'], ['@vf/api', '@vf/authority-sim', '@vf/e2e'], 'No app imports another app; full-stack tests live in e2e/.'),
  ...fenced(['apps/authority-sim/**'], ['@vf/api', '@vf/worker', '@vf/e2e'], 'No app imports another app; full-stack tests live in e2e/.'),
  // The API's services, the dashboard and the packages that make the API's answers take them from packages/contract,
  // never a copy of their own; the dashboard names no shape of the API's.
  { files: CONTRACT_READERS, ignores: TESTS, rules: noContractCopies },
  { files: ['packages/dashboard/**'], ignores: TESTS, rules: noApiShapesInDashboard },
  // The contract is types only (nothing of it runs) and reads only the types of the lowest packages.
  {
    files: ['packages/contract/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@vf/*', '@vf/*/**', '!@vf/core', '!@vf/db'],
              message: "The contract describes the API's answers with the types of @vf/core and @vf/db only.",
            },
            { group: ['@vf/core', '@vf/db'], allowTypeImports: true, message: 'The contract is types only: import types.' },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'Program > :not(ExportNamedDeclaration[exportKind="type"], ImportDeclaration[importKind="type"], TSInterfaceDeclaration, TSTypeAliasDeclaration)',
          message: "The contract is types only: nothing of it runs (the API's services and the dashboard import its types).",
        },
      ],
    },
  },
  // The dashboard is a package the API mounts: it declares what it needs of the API (src/dashboard-api.ts) and is handed
  // it, so it imports no app, and of the workspaces only @vf/core, the row types of @vf/db (never a store) and the
  // answers of @vf/contract.
  {
    files: ['packages/dashboard/**'],
    ignores: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@vf/*', '@vf/*/**', '!@vf/core', '!@vf/db', '!@vf/db/**', '!@vf/contract'],
              message:
                "The dashboard reaches the service only through what the API hands it (dashboard-api.ts), and reads only @vf/core, @vf/db's row types and the API's answers (@vf/contract).",
            },
            {
              group: ['@vf/db', '@vf/db/**'],
              allowTypeImports: true,
              message: "The dashboard reaches data through the API's services, never a store of @vf/db (types are fine).",
            },
          ],
        },
      ],
    },
  },
  // Its tests drive it as the API process serves it, mounted in the API's app (@vf/api/testing).
  {
    files: ['packages/dashboard/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            deepImports,
            {
              group: ['@vf/worker', '@vf/worker/**', '@vf/authority-sim', '@vf/authority-sim/**', '@vf/e2e', '@vf/e2e/**'],
              message: 'A package never imports an app; full-stack tests live in e2e/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['packages/dashboard/assets/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: { document: 'readonly', window: 'readonly', navigator: 'readonly', fetch: 'readonly' },
    },
  },
);
