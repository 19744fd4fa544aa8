import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export type TestProject = 'unit' | 'integration' | 'e2e';

/** Where jest looks for test files, relative to the repository's root. */
export const TEST_ROOTS = ['apps', 'packages', 'clients', 'e2e', 'bench', 'scripts'];

// What a test's own code (the file and the test helpers it imports) uses decides its project, so that no list or
// marker can drift from what the test does:
// - e2e: files in the e2e workspace or named *.e2e.test.ts, and tests that start service processes (they start the
//   compiled build) or a browser;
// - integration: tests that use PostgreSQL, Redis or the run's pool of RSA keys, in-process;
// - unit: the rest.
const E2E_MODULES = new Set(['@vf/private-servers', 'playwright-core']);
const INTEGRATION_MODULES = new Set(['pg', 'ioredis', 'bullmq']);
// The key pool; the database helpers import pg.
const INTEGRATION_FILES = ['packages/certificates/src/testing/test-key-pool.ts'];

const IMPORT = /(?:^|[;\n])\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\bfrom\s*)?['"]([^'"]+)['"]/g;
const DYNAMIC_IMPORT = /\b(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g;

const imports = new Map<string, string[]>();

function importsOf(file: string): string[] {
  let found = imports.get(file);
  if (!found) {
    const source = readFileSync(file, 'utf8');
    found = [...source.matchAll(IMPORT), ...source.matchAll(DYNAMIC_IMPORT)].map((m) => m[1]);
    imports.set(file, found);
  }
  return found;
}

/** Test helpers live in `testing/` (each workspace's `./testing` export) or `support/` folders. */
function isTestHelper(root: string, file: string): boolean {
  return path
    .relative(root, file)
    .split(path.sep)
    .some((dir) => dir === 'testing' || dir === 'support');
}

function resolveFile(base: string): string | undefined {
  return [base, `${base}.ts`, path.join(base, 'index.ts')].find((f) => f.endsWith('.ts') && existsSync(f));
}

function workspaceSources(root: string): Map<string, string> {
  const sources = new Map<string, string>();
  for (const group of ['apps', 'packages', '.']) {
    const dirs = group === '.' ? ['e2e'] : readdirSync(path.join(root, group)).map((d) => path.join(group, d));
    for (const dir of dirs) {
      const manifest = path.join(root, dir, 'package.json');
      if (!existsSync(manifest)) continue;
      const { name, exports = {} } = JSON.parse(readFileSync(manifest, 'utf8')) as { name: string; exports?: object };
      for (const [subpath, target] of Object.entries(exports as Record<string, Record<string, string>>)) {
        const source = target['@vf/source'];
        if (source) sources.set(path.posix.join(name, subpath), path.join(root, dir, source));
      }
    }
  }
  return sources;
}

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return ['node_modules', 'dist'].includes(entry.name) || entry.name.startsWith('.') ? [] : testFiles(full);
    return entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** Every test file under the roots, absolute, by the jest project it belongs to. */
export function testProjects(root: string): Record<TestProject, string[]> {
  const sources = workspaceSources(root);
  const integrationFiles = new Set(INTEGRATION_FILES.map((f) => path.join(root, f)));

  // The most demanding project the test code reaches from `file`; helpers are followed, the code under test is not.
  function needs(file: string, seen: Set<string>): TestProject {
    if (seen.has(file)) return 'unit';
    seen.add(file);
    let need: TestProject = integrationFiles.has(file) ? 'integration' : 'unit';
    for (const specifier of importsOf(file)) {
      if (E2E_MODULES.has(specifier)) return 'e2e';
      if (INTEGRATION_MODULES.has(specifier)) need = 'integration';
      const target = specifier.startsWith('.') ? resolveFile(path.resolve(path.dirname(file), specifier)) : sources.get(specifier);
      if (target && isTestHelper(root, target)) {
        const helperNeed = needs(target, seen);
        if (helperNeed === 'e2e') return 'e2e';
        if (helperNeed === 'integration') need = 'integration';
      }
    }
    return need;
  }

  const projects: Record<TestProject, string[]> = { unit: [], integration: [], e2e: [] };
  // A root a checkout does not have (a tree of only some workspaces) holds no test.
  const roots = TEST_ROOTS.map((dir) => path.join(root, dir)).filter((dir) => existsSync(dir));
  for (const file of roots.flatMap((dir) => testFiles(dir))) {
    const named = file.startsWith(path.join(root, 'e2e') + path.sep) || file.endsWith('.e2e.test.ts');
    projects[named ? 'e2e' : needs(file, new Set())].push(file);
  }
  return projects;
}
