import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { AUTHORITY_CODE_TEXTS, SERVICE_CAUSES, SERVICE_CAUSE_TEXTS, explainCause, inPlainWords } from '.';

const root = join(__dirname, '../../../..');
const knownCodes = new Set(
  readFileSync(join(root, 'packages/xml/schemas/errores.properties.utf8.txt'), 'utf8')
    .split('\n')
    .map((line) => /^(\d{4,5}) =/.exec(line)?.[1])
    .filter((c): c is string => c !== undefined)
    .map(Number),
);

/** Every authority code written anywhere in the simulator's source: what it can answer. */
function codesTheSimulatorProduces(): number[] {
  const dir = join(root, 'apps/authority-sim/src');
  const source = readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
  const numbers = new Set([...source.matchAll(/\b\d{4,5}\b/g)].map((m) => Number(m[0])));
  return [...numbers].filter((n) => knownCodes.has(n) || n === 20009);
}

test('every code the simulator produces is explained, with a next step, in Spanish and English', () => {
  const codes = codesTheSimulatorProduces();
  expect(codes.length).toBeGreaterThan(40);
  expect(codes.filter((c) => !(c in AUTHORITY_CODE_TEXTS))).toEqual([]);
  for (const text of [...Object.values(AUTHORITY_CODE_TEXTS), ...Object.values(SERVICE_CAUSE_TEXTS)]) {
    for (const lang of ['es', 'en'] as const) {
      expect(text[lang].explanation).toMatch(/\S.*\.$/);
      expect(text[lang].nextStep).toMatch(/\S.*\.$/);
    }
  }
});

test('the causes that need the user say what to change; a service cause wins over the code it came with', () => {
  for (const code of [4104, 4108, 4112]) expect(explainCause({ code })!.es.nextStep).toMatch(/contribuyente|certificado/);
  for (const c of SERVICE_CAUSES.filter((s) => s.startsWith('certificate_')))
    expect(explainCause({ cause: c })!.en.nextStep).toMatch(/certificate/);
  expect(explainCause({ code: 3000, cause: 'number_taken' })).toBe(SERVICE_CAUSE_TEXTS.number_taken);
  expect(inPlainWords(explainCause({ code: 4112 })!, 'en')).toMatch(/^The authority does not accept this certificate.*Resend/);
});

test('a code not in the list is still explained by its family, never left raw', () => {
  expect(explainCause({ code: 4999 })!.en.explanation).toMatch(/refused the whole message \(code 4999\)/);
  expect(explainCause({ code: 1999 })!.es.explanation).toMatch(/problema en el registro \(código 1999\)/);
  expect(explainCause({ code: null })).toBeUndefined();
  expect(explainCause({ cause: 'not-a-cause' })).toBeUndefined();
});
