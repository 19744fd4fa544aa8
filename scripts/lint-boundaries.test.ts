import path from 'node:path';
import { ESLint } from 'eslint';

// The repository's boundaries are lint rules (eslint.config.cjs); these cases show each one fires, and stays quiet
// for the allowed form.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the configuration file is CommonJS
const config = require('../eslint.config.cjs');
const eslint = new ESLint({ cwd: path.resolve(__dirname, '..'), overrideConfigFile: true, overrideConfig: config });

async function problems(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.resolve(__dirname, '..', file) });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
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
