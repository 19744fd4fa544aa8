import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { SERVICE_ENTRY_POINTS, SERVICE_NODE_FLAGS, type ServiceRole } from '@vf/config';

// Every app and package is compiled by `npm run build` (tsc -b tsconfig.build.json) into its own dist/, and resolves
// to dist/ at run time but to src/ in jest and the type check. That takes four pieces of wiring per workspace (see
// the README's contributor notes); this checks each of them, so that a new workspace wired by copying an existing
// one is told exactly what it lacks.
const ROOT = path.resolve(__dirname, '..');

const readJson = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8'));

function workspaces(): string[] {
  return ['apps', 'packages'].flatMap((group) => readdirSync(path.join(ROOT, group)).map((dir) => `${group}/${dir}`));
}

/** The compiled files of a workspace: everything in src/ but the tests (`testing/` helpers included). */
function compiledFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter(
      (entry) =>
        entry.isFile() &&
        entry.name.endsWith('.ts') &&
        !entry.name.endsWith('.test.ts') &&
        !entry.name.endsWith('.d.ts') &&
        !entry.parentPath.includes('node_modules'),
    )
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** The test files of a folder. */
function testFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.test.ts') && !entry.parentPath.includes('node_modules'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

const referenced = (config: { references?: { path: string }[] }, from: string) =>
  (config.references ?? []).map((r) => path.relative(ROOT, path.resolve(ROOT, from, r.path)));

test('the build compiles every app and package: each has a tsconfig.build.json the root build references', () => {
  const root = referenced(readJson('tsconfig.build.json'), '.');
  for (const dir of workspaces()) {
    const config = readJson(`${dir}/tsconfig.build.json`);
    expect({ dir, extends: config.extends }).toEqual({ dir, extends: '../../tsconfig.workspace.json' });
    expect({ dir, inRootBuild: root.includes(`${dir}/tsconfig.build.json`) }).toEqual({ dir, inRootBuild: true });
  }
});

test("a workspace's build references every workspace its compiled code imports", () => {
  const dirOf = new Map(workspaces().map((dir) => [readJson(`${dir}/package.json`).name as string, dir]));
  for (const dir of workspaces()) {
    const name = readJson(`${dir}/package.json`).name;
    const references = referenced(readJson(`${dir}/tsconfig.build.json`), dir);
    const imported = new Set<string>();
    for (const file of compiledFiles(`${dir}/src`))
      for (const m of readFileSync(file, 'utf8').matchAll(/from '(@vf\/[a-z-]+)[^']*'/g)) if (m[1] !== name) imported.add(m[1]);
    for (const dependency of imported) {
      const needed = `${dirOf.get(dependency)}/tsconfig.build.json`;
      expect({ dir, imports: dependency, referenced: references.includes(needed) }).toEqual({ dir, imports: dependency, referenced: true });
    }
  }
});

test('each export resolves to the sources under the "@vf/source" condition and to dist/ otherwise', () => {
  for (const dir of workspaces()) {
    const { exports } = readJson(`${dir}/package.json`);
    expect({ dir, hasExports: Object.keys(exports).length > 0 }).toEqual({ dir, hasExports: true });
    for (const [subpath, target] of Object.entries(exports as Record<string, unknown>)) {
      const source = (target as Record<string, string>)['@vf/source'];
      expect({ dir, subpath, source }).toEqual({ dir, subpath, source: expect.stringMatching(/^\.\/src\/.+\.ts$/) });
      const compiled = source.replace(/^\.\/src\//, './dist/').replace(/\.ts$/, '.js');
      // The condition first: Node takes the first that matches, and "default" always does.
      expect({ dir, subpath, target }).toEqual({ dir, subpath, target: { '@vf/source': source, default: compiled } });
      expect(Object.keys(target as object)).toEqual(['@vf/source', 'default']);
    }
  }
});

test("`npm run <role>` and the image's entry point start each role's compiled entry point with its role's flags", () => {
  const { scripts } = readJson('package.json');
  const entrypoint = readFileSync(path.join(ROOT, 'docker/entrypoint.sh'), 'utf8');
  for (const [role, file] of Object.entries(SERVICE_ENTRY_POINTS)) {
    const command = ['node', ...SERVICE_NODE_FLAGS[role as ServiceRole], file].join(' ');
    expect({ role, script: scripts[role] }).toEqual({ role, script: command });
    expect({ role, inImage: entrypoint.includes(`  ${role}) exec ${command} "$@" ;;`) }).toEqual({ role, inImage: true });
  }
});

test('no test starts a service from its TypeScript sources: they start the compiled processes (startService)', () => {
  const offenders = ['apps', 'packages', 'e2e']
    .flatMap((dir) => compiledFiles(dir).concat(testFiles(dir)))
    .filter((file) => /'--import',\s*'tsx'|\.bin\/tsx'|src\/main\.ts'\)/.test(readFileSync(file, 'utf8')))
    .map((file) => path.relative(ROOT, file));
  expect(offenders).toEqual([]);
});
