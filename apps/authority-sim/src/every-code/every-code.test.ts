import { AEAT_ERROR_TABLE, AEAT_PREVIOUS_TABLE_ONLY } from '@vf/core';
import { parseRegFactuReply, validateEachAgainstXsd } from '@vf/xml';
import { codeLevel, tableEntry } from '../rules/rule-set';
import { PLATFORM_NIF, startTestSimulator, type HttpReply, type TestSimulator } from '../testing/test-simulator';
import { CENSUS_UNKNOWN, SECOND_COLLABORATOR, caseSession, keepAlive, type CodeCase } from './case-session';
import { HEADER_AND_CONSULTA_CASES } from './header-and-consulta-cases';
import { INJECTED_CASES } from './injected-cases';
import { LINE_CASES } from './line-cases';
import { MESSAGE_RULE_CASES } from './message-cases';
import { RECORD_CONTENT_CASES } from './record-content-cases';
import { RECORD_FORM_CASES } from './record-form-cases';
import { REQUIREMENT_CASES } from './requirement-cases';
import { ADMISSIBLE_CASES, PREVIOUS_RULE_SET_CASES, REGISTRY_CASES } from './registry-and-admissible-cases';

// Every code of the authority's current table (and the three only the previous table has) comes out of the
// simulator at its level and in the authority's shape: a record or message that breaks a local rule, or a fault a
// test switches on for what only the authority can know. Answers with lines are checked against its XSDs.

const CASES: readonly CodeCase[] = [
  ...MESSAGE_RULE_CASES,
  ...HEADER_AND_CONSULTA_CASES,
  ...REQUIREMENT_CASES,
  ...RECORD_FORM_CASES,
  ...RECORD_CONTENT_CASES,
  ...LINE_CASES,
  ...REGISTRY_CASES,
  ...ADMISSIBLE_CASES,
  ...PREVIOUS_RULE_SET_CASES,
  ...INJECTED_CASES,
];

let t: TestSimulator;
const answers: string[] = [];

beforeAll(async () => {
  t = await startTestSimulator({
    collaboratorNifs: [PLATFORM_NIF, SECOND_COLLABORATOR],
    unknownNifs: CENSUS_UNKNOWN,
    behaviour: { waitSeconds: 0 },
  });
});
afterAll(async () => {
  keepAlive.destroy();
  await t.close();
});
afterEach(() => {
  t.sim.clearFaults();
  t.sim.configure({ ruleSet: 'current' });
});

test('the cases cover every code of both published tables', () => {
  const current = CASES.filter((c) => c.ruleSet !== 'previous').map((c) => c.code);
  expect([...new Set(current)].sort()).toEqual(AEAT_ERROR_TABLE.map((e) => e.code).sort());
  const previousOnly = CASES.filter((c) => c.ruleSet === 'previous').map((c) => c.code);
  expect(AEAT_PREVIOUS_TABLE_ONLY.map((e) => e.code).every((code) => previousOnly.includes(code))).toBe(true);
});

function faultOf(reply: HttpReply) {
  const parsed = parseRegFactuReply(reply.body);
  if (parsed.kind !== 'fault') throw new Error(`expected a SOAP Fault, got HTTP ${reply.status}: ${reply.body.slice(0, 400)}`);
  return parsed;
}

describe.each(CASES.map((c) => [`${c.code} (${c.how}: ${c.why})`, c] as const))('%s', (_name, c) => {
  test(c.shape === 'fault' ? 'refuses the whole message' : 'answers the record’s line', async () => {
    const ruleSet = c.ruleSet ?? 'current';
    t.sim.configure({ ruleSet });
    const level = codeLevel(ruleSet, c.code)!;
    const text = tableEntry(ruleSet, c.code)!.text.split('%s')[0];
    const reply = await c.run(caseSession(t, `C${c.code}-${c.how}-${c.why.length}`));
    if (c.shape === 'fault') {
      // A header or consulta error of the record section refuses the whole request too.
      expect(level === 'message' || level === 'record').toBe(true);
      const fault = faultOf(reply);
      expect(fault).toMatchObject({ code: c.code });
      expect(fault.message.startsWith(`Codigo[${c.code}].${text}`)).toBe(true);
      expect([200, 500]).toContain(reply.status);
      return;
    }
    expect(reply.status).toBe(200);
    answers.push(reply.body);
    const parsed = parseRegFactuReply(reply.body);
    if (parsed.kind !== 'response') throw new Error(`expected an answer with lines, got ${parsed.message}`);
    const line = parsed.lines[parsed.lines.length - 1];
    expect({ code: line.errorCode, state: line.state }).toEqual({
      code: c.code,
      state: level === 'accepted' ? 'AceptadoConErrores' : 'Incorrecto',
    });
    expect(line.errorDescription?.startsWith(text)).toBe(true);
    const held = t.sim.state.registry.find(line.id);
    if (level === 'accepted') expect(held).toMatchObject({ state: 'AceptadoConErrores', errorCode: c.code });
    else if (c.code !== 3000 && c.code !== 3001 && c.code !== 3003 && c.code !== 3004) expect(held).toBeUndefined();
  });
});

// Last in the file: the answers the cases collected, checked against RespuestaSuministro.xsd in one run.
test('every answer with lines is valid against the authority’s response schema', async () => {
  expect(answers.length).toBeGreaterThan(150);
  const verdicts = await validateEachAgainstXsd(answers, 'response');
  expect(verdicts.flatMap((v, i) => (v.valid ? [] : [[i, v.errors[0]]]))).toEqual([]);
});
