import { AUTHORITY_CODE_TEXTS, SERVICE_CAUSES, SERVICE_CAUSE_TEXTS, explainCause, inPlainWords } from '.';

// That every code the simulator can answer has a text here is checked beside the simulator
// (apps/authority-sim/src/authority-codes-explained.test.ts).
test('every code and service cause is explained, with a next step, in Spanish and English', () => {
  for (const text of [...Object.values(AUTHORITY_CODE_TEXTS), ...Object.values(SERVICE_CAUSE_TEXTS)]) {
    for (const lang of ['es', 'en'] as const) {
      expect(text[lang].explanation).toMatch(/\S.*\.$/);
      expect(text[lang].nextStep).toMatch(/\S.*\.$/);
    }
  }
});

test('the causes that need the user say what to change; a service cause wins over the code it came with', () => {
  for (const code of [4104, 4112, 401]) expect(explainCause({ code })!.es.nextStep).toMatch(/contribuyente|certificado/);
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
