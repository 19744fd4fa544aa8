import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// docs/architecture.md draws which workspace imports which. The drawing is checked against the code itself, so it
// cannot drift: production files only (tests and `testing/` helpers are left out), plus the e2e workspace.
const ROOT = path.resolve(__dirname, '..');
const DOC = path.join(ROOT, 'docs', 'architecture.md');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' || entry.name === 'node_modules' ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

function workspaces(): { dir: string; name: string }[] {
  const dirs = ['apps', 'packages'].flatMap((group) => readdirSync(path.join(ROOT, group)).map((d) => path.join(group, d)));
  return [...dirs, 'e2e'].map((dir) => ({ dir, name: JSON.parse(readFileSync(path.join(ROOT, dir, 'package.json'), 'utf8')).name }));
}

/** One mermaid edge per workspace import, sorted. */
function importEdges(): string[] {
  const edges = new Set<string>();
  for (const { dir, name } of workspaces()) {
    const files = sourceFiles(path.join(ROOT, dir, 'src'));
    for (const file of files) {
      for (const m of readFileSync(file, 'utf8').matchAll(/from '(@vf\/[a-z-]+)[^']*'/g)) {
        if (m[1] !== name) edges.add(`  ${name.slice(4)} --> ${m[1].slice(4)}`);
      }
    }
  }
  return [...edges].sort();
}

function drawnEdges(): string[] {
  const doc = readFileSync(DOC, 'utf8');
  const block = /```mermaid\ngraph LR\n([\s\S]*?)```/.exec(doc.slice(doc.indexOf('## How the workspaces depend on each other')));
  if (!block) throw new Error('docs/architecture.md has no workspace drawing');
  return block[1].split('\n').filter((l) => l.includes('-->'));
}

test("docs/architecture.md's workspace drawing is the code's import graph", () => {
  expect(drawnEdges()).toEqual(importEdges());
});

test('in that graph no app imports another app and no package imports an app', () => {
  const apps = new Set(['api', 'worker', 'authority-sim']);
  for (const edge of importEdges()) {
    const [from, to] = edge.trim().split(' --> ');
    if (from !== 'e2e') expect({ edge, importsAnApp: apps.has(to) }).toEqual({ edge, importsAnApp: false });
  }
});
