import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { AUTHORITY_CODE_TEXTS } from '@vf/core';
import { aeatErrorText } from '@vf/xml';

/** Every authority code (an entry of AEAT's errores.properties, or 20009) written anywhere in the simulator's source. */
function codesTheSimulatorProduces(): number[] {
  const source = readdirSync(__dirname)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => readFileSync(join(__dirname, f), 'utf8'))
    .join('\n');
  const numbers = new Set([...source.matchAll(/\b\d{4,5}\b/g)].map((m) => Number(m[0])));
  return [...numbers].filter((n) => aeatErrorText(n) !== undefined || n === 20009);
}

test('every code the simulator produces is explained to the user by @vf/core', () => {
  const codes = codesTheSimulatorProduces();
  expect(codes.length).toBeGreaterThan(40);
  expect(codes.filter((c) => !(c in AUTHORITY_CODE_TEXTS))).toEqual([]);
});
