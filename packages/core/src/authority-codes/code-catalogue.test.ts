import { AEAT_ERROR_TABLE } from './aeat-error-table';
import { CODE_CATALOGUE, codeBehaviour, type CodeAction } from './code-catalogue';
import { explainCause } from './explain-cause';

const SPANISH_ONLY = /\b(the|and|with|record|invoice|authority)\b/i;

test.each(AEAT_ERROR_TABLE.map((e) => [e.code, e] as const))(
  'code %i has a behaviour consistent with its level and plain words in Spanish and English',
  (code, entry) => {
    const b = CODE_CATALOGUE.get(code)!;
    expect(b).toMatchObject({ code, level: entry.level });
    // The level bounds what the service may do: only a record the authority stored is registered, and only a code
    // that rejects a record (not the message) leaves it rejected.
    const allowed: Record<typeof entry.level, CodeAction[]> = {
      accepted: ['accepted_with_warnings', 'error'],
      record: ['rejected', 'retry', 'consulta'],
      message: ['error', 'retry', 'stop'],
    };
    expect(allowed[entry.level]).toContain(b.action);
    expect(b.stored).toBe(entry.level === 'accepted' ? 'yes' : b.action === 'consulta' ? 'unknown' : 'no');
    expect(b.retried).toBe(b.action === 'retry');
    expect(b.needsUser).toBe(!['retry', 'consulta'].includes(b.action));
    for (const lang of ['es', 'en'] as const) {
      expect(b.text[lang].explanation).toMatch(/\S.*\.$/);
      expect(b.text[lang].nextStep).toMatch(/\S.*\.$/);
    }
    expect(`${b.text.es.explanation} ${b.text.es.nextStep}`.replace(/«[^»]*»/g, '')).not.toMatch(SPANISH_ONLY);
    expect(b.text.es.explanation).not.toBe(b.text.en.explanation);
    expect(explainCause({ code })).toBe(b.text);
  },
);

test('the catalogue holds all 247 codes of the current table and the three observed outside it', () => {
  expect(AEAT_ERROR_TABLE).toHaveLength(247);
  expect([...CODE_CATALOGUE.keys()].filter((c) => AEAT_ERROR_TABLE.some((e) => e.code === c))).toHaveLength(247);
  expect([...CODE_CATALOGUE.values()].filter((b) => b.level === 'outside_table').map((b) => b.code)).toEqual([102, 20009, 401]);
});

test('what integrators met on the real service: retry codes go again, 3000/3001 are asked, 4141 stops, 2007 is registered', () => {
  const actions = (codes: number[]) => codes.map((c) => codeBehaviour(c).action);
  expect(actions([1129, 1241, 1243, 1256, 1288, 3500, 3501, 4103, 4108, 4110, 4111, 4118, 4128, 102, 20009])).toEqual(
    Array(15).fill('retry'),
  );
  expect(actions([3000, 3001])).toEqual(['consulta', 'consulta']);
  expect(codeBehaviour(4141)).toMatchObject({ action: 'stop', stopsSender: true, retried: false });
  expect(codeBehaviour(2007)).toMatchObject({ action: 'accepted_with_warnings', stored: 'yes', retried: false, stopsSender: false });
  // What to do is said without sending anyone to support: the tenant can give the system its own installation number.
  for (const lang of ['es', 'en'] as const) {
    expect(codeBehaviour(2007).text[lang].nextStep).not.toMatch(/soporte|support/i);
    expect(codeBehaviour(2007).text[lang].nextStep).toMatch(/installation_number/);
  }
  expect(actions([4112, 401, 4134, 4139])).toEqual(['error', 'error', 'error', 'error']);
  expect(actions([2000, 2004])).toEqual(['accepted_with_warnings', 'accepted_with_warnings']);
  expect(codeBehaviour(1108).action).toBe('rejected');
  expect(codeBehaviour(4112).text.es.nextStep).toMatch(/certificado/);
  expect(codeBehaviour(401).text.en.nextStep).toMatch(/certificate/);
});

test('a code in no table is not guessed at: the Consulta service decides, and the user still reads something', () => {
  expect(codeBehaviour(1999)).toMatchObject({ action: 'consulta', stored: 'unknown', retried: false });
  expect(codeBehaviour(1999).text.es.explanation).toMatch(/no figura en su tabla/);
});

test('the requerimiento header codes refuse the whole message, each in its own words; 4128 is the one technical error', () => {
  const header = [4122, 4125, 4126, 4127, 4129, 4130, 4131, 4133];
  for (const code of header) {
    expect(codeBehaviour(code)).toMatchObject({ level: 'message', action: 'error', stored: 'no', retried: false });
    expect(codeBehaviour(code).text.es.explanation).toMatch(/requerimiento|RefRequerimiento|FinRequerimiento|remisión voluntaria/i);
  }
  expect(codeBehaviour(4128)).toMatchObject({ level: 'message', action: 'retry', retried: true });
  // An unknown or malformed reference is the user's to fix; the rest are the service's own mistakes.
  expect(codeBehaviour(4122).text.es.nextStep).toMatch(/referencia/);
  expect(codeBehaviour(4133).text.en.nextStep).toMatch(/reference/);
  expect(new Set(header.map((c) => codeBehaviour(c).text.en.explanation)).size).toBe(header.length);
});
