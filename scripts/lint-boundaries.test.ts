import path from 'node:path';
import { is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { ESLint } from 'eslint';
import * as schema from '@vf/db';

// The repository's boundaries are lint rules (eslint.config.cjs); these cases show each one fires, and stays quiet
// for the allowed form.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the configuration file is CommonJS
const config = require('../eslint.config.cjs');
const eslint = new ESLint({ cwd: path.resolve(__dirname, '..'), overrideConfigFile: true, overrideConfig: config });

const IMPORT_RULES = ['no-restricted-imports', '@typescript-eslint/no-restricted-imports'];

async function problems(file: string, code: string, rules = IMPORT_RULES): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.resolve(__dirname, '..', file) });
  return result.messages.filter((m) => m.ruleId !== null && rules.includes(m.ruleId)).map((m) => m.message);
}

test("a workspace's files are reached only through its exports map", async () => {
  expect(await problems('apps/api/src/x.ts', "import { quotaStore } from '@vf/db/src/stores';\nexport { quotaStore };\n")).toEqual([
    expect.stringContaining('exports map'),
  ]);
  expect(await problems('e2e/src/x.ts', "import { createApp } from '../../apps/api/src/create-app';\nexport { createApp };\n")).toEqual([
    expect.stringContaining('exports map'),
  ]);
  expect(
    await problems(
      'apps/api/src/x.ts',
      "import { quotaStore } from '@vf/db';\nimport { createTestDatabase } from '@vf/db/testing';\nexport { quotaStore, createTestDatabase };\n",
    ),
  ).toEqual([]);
});

test('no app imports another app, and no package imports an app', async () => {
  expect(
    await problems('apps/api/src/x.ts', "import { createWorkerRuntime } from '@vf/worker';\nexport { createWorkerRuntime };\n"),
  ).toEqual([expect.stringContaining('No app imports another app')]);
  expect(await problems('apps/worker/src/x.ts', "import { createApp } from '@vf/api';\nexport { createApp };\n")).toHaveLength(1);
  expect(await problems('packages/queue/src/x.ts', "import { invoiceBody } from '@vf/api/testing';\nexport { invoiceBody };\n")).toEqual([
    expect.stringContaining('never imports an app'),
  ]);
  expect(
    await problems(
      'e2e/src/x.ts',
      "import { createApp } from '@vf/api';\nimport { createWorkerRuntime } from '@vf/worker';\nexport { createApp, createWorkerRuntime };\n",
    ),
  ).toEqual([]);
});

test('the authority client imports no app; the apps, the API included, may import it', async () => {
  const client = "import { SoapTransport } from '@vf/authority-client';\nexport { SoapTransport };\n";
  expect(
    await problems(
      'packages/authority-client/src/x.ts',
      "import { createWorkerRuntime } from '@vf/worker';\nexport { createWorkerRuntime };\n",
    ),
  ).toEqual([expect.stringContaining('never imports an app')]);
  expect(
    await problems('packages/authority-client/src/x.ts', "import { createApp } from '@vf/api';\nexport { createApp };\n"),
  ).toHaveLength(1);
  for (const file of ['apps/api/src/taxpayers/x.ts', 'apps/worker/src/jobs/x.ts']) expect(await problems(file, client)).toEqual([]);
});

test('SQL is written only in packages/db: no other code imports the query builder or the driver', async () => {
  const drizzle = "import { sql } from 'drizzle-orm';\nexport const q = sql`SELECT 1`;\n";
  const driver = "import { Pool } from 'pg';\nexport const pool = new Pool();\n";
  for (const file of ['apps/api/src/invoices/x.ts', 'apps/worker/src/jobs/x.ts', 'packages/queue/src/x.ts']) {
    expect(await problems(file, drizzle)).toEqual([expect.stringContaining('SQL lives in packages/db')]);
    expect(await problems(file, driver)).toEqual([expect.stringContaining('SQL lives in packages/db')]);
  }
  expect(await problems('apps/api/src/x.ts', "import { alias } from 'drizzle-orm/pg-core';\nexport { alias };\n")).toHaveLength(1);
  // Nor a table of the schema, with which a query needs no import of drizzle-orm: every table @vf/db exports.
  const tables = Object.entries(schema)
    .filter(([, value]) => is(value, PgTable))
    .map(([name]) => name);
  expect(tables).toContain('invoices');
  const importingTables = `import { ${tables.join(', ')} } from '@vf/db';\nexport { ${tables.join(', ')} };\n`;
  expect(await problems('apps/api/src/x.ts', importingTables)).toEqual(tables.map(() => expect.stringContaining('stores of packages/db')));
  expect(await problems('packages/queue/src/x.ts', importingTables)).toHaveLength(tables.length);
  expect(
    await problems(
      'apps/api/src/x.ts',
      "import { invoiceStore, type InvoiceRow } from '@vf/db';\nexport { invoiceStore };\nexport type R = InvoiceRow;\n",
    ),
  ).toEqual([]);
  // The stores themselves, and tests setting their data up.
  expect(await problems('packages/db/src/stores/x.ts', drizzle)).toEqual([]);
  expect(await problems('apps/api/src/invoices/x.test.ts', drizzle)).toEqual([]);
});

test('the chain writer imports no app and nothing of HTTP, and reaches PostgreSQL only through the stores of @vf/db', async () => {
  const file = 'packages/chain/src/append/x.ts';
  expect(await problems(file, "import { ApiError } from '@vf/api';\nexport { ApiError };\n")).toEqual([
    expect.stringContaining('knows nothing of HTTP'),
  ]);
  expect(await problems(file, "import type { Request } from 'express';\nexport type R = Request;\n")).toEqual([
    expect.stringContaining('knows nothing of HTTP'),
  ]);
  expect(await problems(file, "import { sql } from 'drizzle-orm';\nexport const q = sql`SELECT 1`;\n")).toEqual([
    expect.stringContaining('SQL lives in packages/db'),
  ]);
  expect(await problems(file, "import { invoices } from '@vf/db';\nexport { invoices };\n")).toEqual([
    expect.stringContaining('stores of packages/db'),
  ]);
  expect(
    await problems(
      file,
      "import { appendChainRecords, type AppendWrite } from '@vf/db';\nexport { appendChainRecords };\nexport type W = AppendWrite;\n",
    ),
  ).toEqual([]);
});

test("the dashboard uses no store of @vf/db, only the API's services (and the types of the rows they return)", async () => {
  expect(
    await problems('packages/dashboard/src/invoices/x.ts', "import { invoiceListStore } from '@vf/db';\nexport { invoiceListStore };\n"),
  ).toEqual([expect.stringContaining("through the API's services")]);
  expect(
    await problems(
      'packages/dashboard/src/x.ts',
      "import { accountStore, type Db } from '@vf/db';\nexport { accountStore };\nexport type D = Db;\n",
    ),
  ).toHaveLength(1);
  expect(
    await problems('packages/dashboard/src/x.ts', "import type { InvoiceListRow } from '@vf/db';\nexport type R = InvoiceListRow;\n"),
  ).toEqual([]);
  expect(await problems('packages/dashboard/src/x.ts', "import { explainCause } from '@vf/core';\nexport { explainCause };\n")).toEqual([]);
  // Outside the dashboard, services call stores.
  expect(
    await problems('apps/api/src/invoices/x.ts', "import { invoiceListStore } from '@vf/db';\nexport { invoiceListStore };\n"),
  ).toEqual([]);
});

test("the API's lower layers import no feature: the features hand them what they need", async () => {
  expect(
    await problems(
      'apps/api/src/openapi/x.ts',
      "import { invoiceRouteDocs } from '../invoices/invoice-routes';\nexport { invoiceRouteDocs };\n",
    ),
  ).toEqual([expect.stringContaining('imports no feature')]);
  expect(await problems('apps/api/src/health/x.ts', "import { createApp } from '../create-app';\nexport { createApp };\n")).toHaveLength(1);
  expect(
    await problems('apps/api/src/auth/x.ts', "import { renderTaxpayer } from '../taxpayers/taxpayer-view';\nexport { renderTaxpayer };\n"),
  ).toHaveLength(1);
  // Still fenced off the other apps and SQL like the rest of the API.
  expect(await problems('apps/api/src/http/x.ts', "import { sql } from 'drizzle-orm';\nexport { sql };\n")).toEqual([
    expect.stringContaining('SQL lives in packages/db'),
  ]);
  // The other way round is the point: a feature uses the lower layers.
  expect(
    await problems('apps/api/src/invoices/x.ts', "import type { RouteDoc } from '../openapi/route-doc';\nexport type R = RouteDoc;\n"),
  ).toEqual([]);
  expect(await problems('apps/api/src/openapi/x.ts', "import { ApiError } from '../errors/api-error';\nexport { ApiError };\n")).toEqual(
    [],
  );
});

test('the dashboard imports nothing of the API, not even its types: it is handed what it declares (dashboard-api.ts)', async () => {
  for (const code of [
    "import { createApp } from '@vf/api';\nexport { createApp };\n",
    "import type { AppDeps } from '@vf/api';\nexport type D = AppDeps;\n",
    "import { invoiceBody } from '@vf/api/testing';\nexport { invoiceBody };\n",
  ]) {
    expect(await problems('packages/dashboard/src/invoices/x.ts', code)).not.toEqual([]);
  }
  // Nor another workspace that reaches data or queues: only @vf/core and the row types of @vf/db.
  expect(await problems('packages/dashboard/src/x.ts', "import { createQueues } from '@vf/queue';\nexport { createQueues };\n")).toEqual([
    expect.stringContaining('what the API hands it'),
  ]);
  // Its tests drive it mounted in the API's app (through the API's test helpers), as e2e does; no other app.
  expect(
    await problems(
      'packages/dashboard/src/invoices/x.test.ts',
      "import { createTestApp } from '@vf/api/testing';\nexport { createTestApp };\n",
    ),
  ).toEqual([]);
  expect(
    await problems(
      'packages/dashboard/src/invoices/x.test.ts',
      "import { createWorkerRuntime } from '@vf/worker';\nexport { createWorkerRuntime };\n",
    ),
  ).toEqual([expect.stringContaining('never imports an app')]);
});

test("the API's answers are written once, in @vf/contract: the dashboard imports them, and neither side declares a copy", async () => {
  const importingAnswers = "import type { ChainVerification } from '@vf/contract';\nexport type V = ChainVerification;\n";
  expect(await problems('packages/dashboard/src/chain/x.ts', importingAnswers)).toEqual([]);
  expect(await problems('apps/api/src/chain/x.ts', importingAnswers)).toEqual([]);
  const copy = 'export interface ChainView {\n  nif: string;\n}\n';
  for (const file of ['packages/dashboard/src/dashboard-api.ts', 'apps/api/src/chain/chain-service.ts']) {
    expect(await problems(file, copy, ['no-restricted-syntax'])).toEqual([expect.stringContaining('import it from @vf/contract')]);
  }
  expect(
    await problems('packages/dashboard/src/x.ts', "export type SignInResult = { outcome: 'blocked' };\n", ['no-restricted-syntax']),
  ).toHaveLength(1);
  // Other names are the dashboard's own.
  expect(
    await problems('packages/dashboard/src/x.ts', 'export interface PageState {\n  page: number;\n}\n', ['no-restricted-syntax']),
  ).toEqual([]);
});

test("the packages that make the API's answers take them from @vf/contract too, and the dashboard names no shape of the API's", async () => {
  const syntax = ['no-restricted-syntax'];
  // Every workspace whose build reads the contract is fenced, whatever its name.
  const copy = 'export interface TaxIdAnswer {\n  result: string;\n}\n';
  for (const file of ['packages/tax-ids/src/x.ts', 'packages/chain/src/checks/x.ts', 'apps/api/src/tax-ids/x.ts']) {
    expect(await problems(file, copy, syntax)).toEqual([expect.stringContaining('import it from @vf/contract')]);
  }
  expect(await problems('packages/chain/src/x.ts', 'export type IntegrityCheckBody = { subject: string };\n', syntax)).toHaveLength(1);
  // A package that does not read the contract keeps its own names (@vf/core's ChainRecord is a record to build).
  expect(await problems('packages/core/src/x.ts', 'export type ChainRecord = { id: string };\n', syntax)).toEqual([]);
  // A dashboard type named after a body, a result, an answer or a report of the API's is a copy waiting to drift.
  for (const name of ['ExportBody', 'IntegrityCheckResult', 'RecipientCheckAnswer', 'CheckReport', 'SettingsRequest', 'ListResponse']) {
    expect(await problems('packages/dashboard/src/kept/x.ts', `export interface ${name} {\n  ok: boolean;\n}\n`, syntax)).toEqual([
      expect.stringContaining('declare it in @vf/contract'),
    ]);
  }
  expect(
    await problems('packages/dashboard/src/x.ts', 'type KeptAnswer = { ok: boolean };\nexport const k: KeptAnswer[] = [];\n', syntax),
  ).toHaveLength(1);
  // Its tests may shape what they read as they like.
  expect(await problems('packages/dashboard/src/kept/x.test.ts', 'export interface CheckReport {\n  ok: boolean;\n}\n', syntax)).toEqual(
    [],
  );
});

test('the contract is types only, and reads only the types of @vf/core and @vf/db', async () => {
  const syntax = ['no-restricted-syntax'];
  expect(await problems('packages/contract/src/x.ts', 'export interface Answer {\n  ok: boolean;\n}\n', syntax)).toEqual([]);
  expect(await problems('packages/contract/src/x.ts', 'export const LIMIT = 20;\n', syntax)).toEqual([
    expect.stringContaining('types only'),
  ]);
  expect(await problems('packages/contract/src/x.ts', 'export function f(): number {\n  return 1;\n}\n', syntax)).toHaveLength(1);
  expect(
    await problems('packages/contract/src/x.ts', "import type { TaxpayerView } from '@vf/db';\nexport type T = TaxpayerView;\n"),
  ).toEqual([]);
  expect(await problems('packages/contract/src/x.ts', "import { taxpayerStore } from '@vf/db';\nexport { taxpayerStore };\n")).toEqual([
    expect.stringContaining('types only'),
  ]);
  expect(await problems('packages/contract/src/x.ts', "import type { Queues } from '@vf/queue';\nexport type Q = Queues;\n")).toEqual([
    expect.stringContaining('@vf/core and @vf/db only'),
  ]);
  expect(await problems('packages/contract/src/x.ts', "import type { AppDeps } from '@vf/api';\nexport type D = AppDeps;\n")).not.toEqual(
    [],
  );
});
