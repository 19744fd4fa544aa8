import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { invoiceBody } from '@vf/api/testing';
import { startStack } from '../support/traced-stack';

// docs/architecture.md lists the at most 20 files one invoice passes through, from POST /api/v1/invoices to `accepted`,
// and the folders around that path (what every request or process uses, and the libraries the steps call). The list is
// held to the code twice: statically (each file exists, and each one but the API's route and the worker's job, where
// the two processes start, is imported by a file listed before it), and by running it (the files whose code runs while
// one invoice goes from the route to `accepted` are exactly the listed ones, plus files of the folders around it).
// Renaming a file, moving a step elsewhere, calling a new file or no longer calling one breaks a test until the list
// says so.
const ROOT = path.resolve(__dirname, '../../..');
const DOC = path.join(ROOT, 'docs', 'architecture.md');
const MAX_FILES = 20;

function docSection(heading: string): string {
  const doc = readFileSync(DOC, 'utf8');
  const start = doc.indexOf(`## ${heading}`);
  if (start < 0) throw new Error(`docs/architecture.md has no section "${heading}"`);
  const end = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, end < 0 ? undefined : end);
}

function listedFiles(): string[] {
  return [...docSection('The trace of one invoice').matchAll(/^\| \d+ \| `([^`]+)` \|/gm)].map((m) => m[1]);
}

/** The globs of the folders around the trace: each item names them before its colon (`- \`a/**\`, \`b.ts\`: why`). */
function aroundGlobs(): string[] {
  const items = docSection('Around the trace').split(/^- /m).slice(1);
  return items.flatMap((item) => [...item.slice(0, item.indexOf(':')).matchAll(/`([^`]+)`/g)].map((m) => m[1]));
}

// A glob: two stars and a slash match any folders, two stars at the end anything, one star any characters but a slash.
function globRegExp(glob: string): RegExp {
  const token = (t: string) => (t === '**/' ? '(?:.*/)?' : t === '**' ? '.*' : t === '*' ? '[^/]*' : `\\${t}`);
  return new RegExp(`^${glob.replace(/\*\*\/|\*\*|\*|[.+^${}()|[\]\\]/g, token)}$`);
}

/** Production sources: what runs in the service's processes, not tests, their helpers, nor the simulator. */
function isProductionSource(file: string): boolean {
  return (
    /^(apps|packages)\/[^/]+\/src\/.+\.ts$/.test(file) &&
    !file.startsWith('apps/authority-sim/') &&
    !/\.test\.ts$/.test(file) &&
    !file.split('/').some((dir) => dir === 'testing' || dir === 'support')
  );
}

function productionSources(): string[] {
  return ['apps', 'packages'].flatMap((group) =>
    readdirSync(path.join(ROOT, group)).flatMap((ws) => {
      const src = path.join(ROOT, group, ws, 'src');
      if (!existsSync(src)) return [];
      return (readdirSync(src, { recursive: true }) as string[])
        .map((f) => `${group}/${ws}/src/${f.split(path.sep).join('/')}`)
        .filter(isProductionSource);
    }),
  );
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

test('each glob "Around the trace" matches production code outside the trace', () => {
  const listed = new Set(listedFiles());
  const sources = productionSources().filter((f) => !listed.has(f));
  for (const glob of aroundGlobs()) {
    const re = globRegExp(glob);
    expect({ glob, matchesSomeSource: sources.some((f) => re.test(f)) }).toEqual({ glob, matchesSomeSource: true });
  }
});

test('the files one invoice runs through, from the route to accepted, are the trace and the folders around it', async () => {
  const stack = await startStack();
  try {
    const { apiUrl, account, taxpayerId, systemId } = await stack.party();
    const registerOne = async () => {
      const res = await request(apiUrl).post('/api/v1/invoices').set(account.auth).send(invoiceBody(taxpayerId, systemId)).expect(201);
      await stack.accepted(res.body.data.id);
    };
    // The first invoice loads what a process loads once (modules, the certificate, prepared statements); the second,
    // with coverage taken just before it, is the one traced.
    await registerOne();
    await stack.takeCoverage();
    await registerOne();
    const ran = await stack.takeCoverage();
    const run = [...ran].filter(isProductionSource);
    const listed = listedFiles();
    const around = aroundGlobs().map(globRegExp);
    expect({
      listedButNotRun: listed.filter((f) => !ran.has(f)),
      runButNotListed: run.filter((f) => !listed.includes(f) && !around.some((re) => re.test(f))).sort(),
    }).toEqual({ listedButNotRun: [], runButNotListed: [] });
  } finally {
    await stack.close();
  }
});
