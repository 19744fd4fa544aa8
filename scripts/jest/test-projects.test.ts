import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { testProjects, type TestProject } from './test-projects';

const ROOT = path.resolve(__dirname, '../..');

function projectOf(projects: Record<TestProject, string[]>, root: string): Record<string, TestProject> {
  return Object.fromEntries(
    Object.entries(projects).flatMap(([project, files]) => files.map((file) => [path.relative(root, file), project as TestProject])),
  );
}

describe("a test file's jest project follows from what its test code uses", () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), 'vf-test-projects-'));
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    };
    for (const dir of ['apps', 'bench', 'scripts']) mkdirSync(path.join(root, dir));
    const exports = { '.': { '@vf/source': './src/index.ts' }, './testing': { '@vf/source': './src/testing/index.ts' } };
    write('packages/store/package.json', JSON.stringify({ name: '@vf/store', exports }));
    write('packages/store/src/index.ts', "import { Pool } from 'pg';\nexport const pool = () => new Pool();\n");
    write('packages/store/src/testing/index.ts', "export * from './scratch-database';\n");
    write('packages/store/src/testing/scratch-database.ts', "import { Client } from 'pg';\nexport const client = new Client();\n");
    write('packages/store/src/testing/fixture.ts', 'export const fixture = 1;\n');
    write(
      'packages/store/src/pure.test.ts',
      "import { fixture } from './testing/fixture';\nimport { pool } from '.';\ntest('x', () => [fixture, pool]);\n",
    );
    write('packages/store/src/through-helpers.test.ts', "import {\n  client,\n} from '@vf/store/testing';\ntest('x', () => client);\n");
    write(
      'packages/store/src/types-only.test.ts',
      "import type { Redis } from 'ioredis';\ntest('x', () => undefined as Redis | undefined);\n",
    );
    // Split, or this file would itself read as requiring ioredis.
    write('packages/store/src/redis.test.ts', 'const { Redis } = require(' + "'ioredis');\ntest('x', () => new Redis());\n");
    write('packages/store/src/processes.test.ts', "import { startService } from '@vf/private-servers';\ntest('x', () => startService);\n");
    write('packages/store/src/browser.e2e.test.ts', "test('x', () => undefined);\n");
    write('e2e/package.json', JSON.stringify({ name: '@vf/e2e', exports: {} }));
    write('e2e/src/stack.test.ts', "test('x', () => undefined);\n");
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('unit unless the test or a test helper it imports uses PostgreSQL, Redis, processes or a browser', () => {
    expect(projectOf(testProjects(root), root)).toEqual({
      'packages/store/src/pure.test.ts': 'unit',
      'packages/store/src/types-only.test.ts': 'unit',
      'packages/store/src/through-helpers.test.ts': 'integration',
      'packages/store/src/redis.test.ts': 'integration',
      'packages/store/src/processes.test.ts': 'e2e',
      'packages/store/src/browser.e2e.test.ts': 'e2e',
      'e2e/src/stack.test.ts': 'e2e',
    });
  });

  it("puts the repository's tests where they need to be", () => {
    const projects = projectOf(testProjects(ROOT), ROOT);
    expect({
      money: projects['packages/core/src/money/money.test.ts'],
      database: projects['packages/certificates/src/rotate-webhook-secrets.test.ts'],
      keyPoolThroughTheSimulator: projects['apps/authority-sim/src/every-code/every-code.test.ts'],
      migrateProcesses: projects['packages/db/src/migrate.test.ts'],
      worker: projects['e2e/src/worker/worker-start.test.ts'],
    }).toEqual({
      money: 'unit',
      database: 'integration',
      keyPoolThroughTheSimulator: 'integration',
      migrateProcesses: 'e2e',
      worker: 'e2e',
    });
  });

  it('leaves the compiled build to the e2e project, the only one that builds it', () => {
    const { unit, integration } = testProjects(ROOT);
    const runsTheBuild = [...unit, ...integration].filter((file) => /\bdist\/[\w./-]*\.js\b/.test(readFileSync(file, 'utf8')));
    expect(runsTheBuild.map((file) => path.relative(ROOT, file))).toEqual([]);
  });
});
