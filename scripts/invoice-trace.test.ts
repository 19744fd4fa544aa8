import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// docs/architecture.md lists the files one invoice passes through, from POST /api/v1/invoices to `accepted`. The list
// is checked against the code: each file exists, and each one (but the API's route and the worker's job, where the
// two processes start) is imported by a file listed before it, by a relative import or by a name a workspace exports.
// Renaming a file, moving a step elsewhere or no longer calling it breaks the test until the list says so.
const ROOT = path.resolve(__dirname, '..');
const DOC = path.join(ROOT, 'docs', 'architecture.md');
const MAX_FILES = 20;

function listedFiles(): string[] {
  const doc = readFileSync(DOC, 'utf8');
  const start = doc.indexOf('## The trace of one invoice');
  const section = doc.slice(start, doc.indexOf('\n## ', start + 1));
  return [...section.matchAll(/^\| \d+ \| `([^`]+)` \|/gm)].map((m) => m[1]);
}

/** Workspace package name (`@vf/db`) to its folder (`packages/db`). */
function workspaceDirs(): Map<string, string> {
  const dirs = ['apps', 'packages'].flatMap((group) => readdirSync(path.join(ROOT, group)).map((d) => path.join(group, d)));
  return new Map(dirs.map((dir) => [JSON.parse(readFileSync(path.join(ROOT, dir, 'package.json'), 'utf8')).name as string, dir]));
}

function resolveRelative(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  return [`${base}.ts`, path.join(base, 'index.ts')].find((f) => existsSync(f));
}

/** Every file a workspace's index re-exports, directly or through other indexes. */
function exportedFiles(index: string, seen = new Set<string>()): Set<string> {
  if (seen.has(index)) return seen;
  seen.add(index);
  for (const m of readFileSync(index, 'utf8').matchAll(/^export (?:type )?(?:\*|\{[^}]*\}) from '(\.[^']+)'/gm)) {
    const target = resolveRelative(index, m[1]);
    if (target) exportedFiles(target, seen);
  }
  return seen;
}

/** The names a file declares as exports. */
function declaredNames(file: string): Set<string> {
  const text = readFileSync(file, 'utf8');
  const names = new Set<string>();
  const declared =
    /^export (?:declare )?(?:default )?(?:async )?(?:abstract )?(?:function\*?|const|let|class|interface|type|enum) ([A-Za-z0-9_$]+)/gm;
  for (const m of text.matchAll(declared)) names.add(m[1]);
  return names;
}

/** The files `file` imports: relative imports, and for a workspace import the files that declare the names it takes. */
function importedFiles(file: string, dirs: Map<string, string>): Set<string> {
  const text = readFileSync(file, 'utf8');
  const found = new Set<string>();
  for (const m of text.matchAll(/^import (?:type )?([\s\S]*?) from '([^']+)';/gm)) {
    const [, clause, spec] = m;
    if (spec.startsWith('.')) {
      const target = resolveRelative(file, spec);
      if (target) found.add(target);
      continue;
    }
    const dir = dirs.get(spec);
    if (!dir) continue;
    const names = [...(/\{([\s\S]*)\}/.exec(clause)?.[1] ?? '').split(',')]
      .map((n) =>
        n
          .replace(/^\s*type\s+/, '')
          .split(' as ')[0]
          .trim(),
      )
      .filter(Boolean);
    for (const exported of exportedFiles(path.join(ROOT, dir, 'src', 'index.ts'))) {
      const declared = declaredNames(exported);
      if (names.some((n) => declared.has(n))) found.add(exported);
    }
  }
  return found;
}

test('docs/architecture.md lists at most 20 files for one invoice, each of them a production source file', () => {
  const files = listedFiles();
  expect(files.length).toBeGreaterThan(0);
  expect(files.length).toBeLessThanOrEqual(MAX_FILES);
  expect(new Set(files).size).toBe(files.length);
  for (const file of files) {
    expect({ file, exists: existsSync(path.join(ROOT, file)), test: /\.test\.ts$|\/testing\//.test(file) }).toEqual({
      file,
      exists: true,
      test: false,
    });
  }
});

test('each file of the trace is imported by one listed before it, but where the API and the worker start', () => {
  const dirs = workspaceDirs();
  const files = listedFiles().map((f) => path.join(ROOT, f));
  const starts = new Set(['apps/api/', 'apps/worker/'].map((app) => files.find((f) => f.startsWith(path.join(ROOT, app)))));
  expect(starts.has(undefined)).toBe(false);
  const imports = new Map(files.map((f) => [f, importedFiles(f, dirs)]));
  files.forEach((file, i) => {
    if (starts.has(file)) return;
    const importers = files.slice(0, i).filter((earlier) => imports.get(earlier)!.has(file));
    expect({ file: path.relative(ROOT, file), importedByAnEarlierFile: importers.length > 0 }).toEqual({
      file: path.relative(ROOT, file),
      importedByAnEarlierFile: true,
    });
  });
});
