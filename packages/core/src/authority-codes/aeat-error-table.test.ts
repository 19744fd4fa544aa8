import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AEAT_ERROR_TABLE, AEAT_PREVIOUS_TABLE_ONLY, aeatError, type AeatErrorLevel } from './aeat-error-table';

const LEVELS: readonly AeatErrorLevel[] = ['message', 'record', 'accepted'];

/** Reads a vendored errores.properties: each `*****` heading opens the next level. */
function readTable(file: string): { code: number; level: AeatErrorLevel; text: string }[] {
  const entries: { code: number; level: AeatErrorLevel; text: string }[] = [];
  let section = -1;
  for (const line of readFileSync(join(__dirname, '../../aeat', file), 'utf8').split('\n')) {
    if (line.startsWith('*')) section += 1;
    const m = /^(\d+) = (.*)$/.exec(line);
    if (m) entries.push({ code: Number(m[1]), level: LEVELS[section]!, text: m[2]!.trim() });
  }
  return entries;
}

test('the typed table is the published current table: every code, its level and its text', () => {
  const published = readTable('errores-tikeV1.0.properties.utf8.txt');
  expect(published).toHaveLength(247);
  expect(AEAT_ERROR_TABLE.map((e) => ({ ...e }))).toEqual(published);
});

test('the codes the current table dropped are the previous table entries it no longer lists', () => {
  const current = new Set(AEAT_ERROR_TABLE.map((e) => e.code));
  const dropped = readTable('errores.properties.utf8.txt').filter((e) => !current.has(e.code));
  expect(AEAT_PREVIOUS_TABLE_ONLY.map((e) => ({ ...e }))).toEqual(dropped);
  expect(dropped.map((e) => e.code)).toEqual([1278, 1279, 1280]);
});

test('a code is looked up with its level; the accepted-with-errors section is 2000-2009', () => {
  expect(aeatError(4141)?.level).toBe('message');
  expect(aeatError(1100)?.level).toBe('record');
  expect(AEAT_ERROR_TABLE.filter((e) => e.level === 'accepted').map((e) => e.code)).toEqual([
    2000, 2001, 2002, 2003, 2004, 2005, 2006, 2007, 2008, 2009,
  ]);
  expect(aeatError(1278)).toBeUndefined();
});
