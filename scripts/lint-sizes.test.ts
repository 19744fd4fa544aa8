import path from 'node:path';
import { ESLint } from 'eslint';

// The size limits of eslint.config.cjs: a source file of at most 400 lines, a function of at most 80, counting every
// line; tests, e2e/ and bench/ are free of them.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the configuration file is CommonJS
const config = require('../eslint.config.cjs');
const eslint = new ESLint({ cwd: path.resolve(__dirname, '..'), overrideConfigFile: true, overrideConfig: config });

async function sizeProblems(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.resolve(__dirname, '..', file) });
  return result.messages.filter((m) => m.ruleId === 'max-lines' || m.ruleId === 'max-lines-per-function').map((m) => m.ruleId!);
}

/** A module of `count` exported constants, one line each. */
function constants(count: number): string {
  return Array.from({ length: count }, (_, i) => `export const c${i} = ${i};\n`).join('');
}

/** A function whose body is `statements` lines, with a comment and a blank line among them. */
function functionOf(statements: number): string {
  const body = Array.from({ length: statements }, (_, i) => `  total += ${i};\n`).join('');
  return `export function f(): number {\n  // why\n\n  let total = 0;\n${body}  return total;\n}\n`;
}

test('a source file over 400 lines is refused, in every app, package and script', async () => {
  for (const file of ['apps/api/src/x.ts', 'packages/core/src/x.ts', 'packages/dashboard/src/x.ts', 'scripts/x.ts']) {
    expect(await sizeProblems(file, constants(401))).toEqual(['max-lines']);
    expect(await sizeProblems(file, constants(400))).toEqual([]);
  }
});

test('a function over 80 lines is refused, its comments and blank lines counted', async () => {
  // 80 lines: the signature, the comment, the blank line, the declaration, 74 statements, the return and the brace.
  expect(await sizeProblems('apps/worker/src/x.ts', functionOf(75))).toEqual(['max-lines-per-function']);
  expect(await sizeProblems('apps/worker/src/x.ts', functionOf(74))).toEqual([]);
});

test('tests, their helpers, the full-stack tests and the load harness are not held to the limits', async () => {
  const long = constants(401) + functionOf(100);
  for (const file of ['apps/api/src/x.test.ts', 'packages/db/src/testing/x.ts', 'e2e/src/x.ts', 'bench/load/x.ts']) {
    expect(await sizeProblems(file, long)).toEqual([]);
  }
});

test("the authority's error table, being data, may be longer; its functions may not", async () => {
  const table = 'packages/core/src/authority-codes/aeat-error-table.ts';
  expect(await sizeProblems(table, constants(600))).toEqual([]);
  expect(await sizeProblems(table, functionOf(75))).toEqual(['max-lines-per-function']);
});
