import { CODE_CATALOGUE } from '../authority-codes';
import {
  expectedOutcome,
  formatSandboxScenario,
  parseSandboxScenario,
  SCENARIO_NAMES,
  SCENARIO_PARAMETERS,
  ScenarioRefusal,
  type SandboxScenario,
} from '.';

test('every code of the authority’s table, and those observed outside it, is reachable by some scenario', () => {
  const unreachable = [...CODE_CATALOGUE.keys()].filter((code) =>
    SCENARIO_NAMES.every((name) => parseSandboxScenario(`${name}:${code}`) instanceof ScenarioRefusal),
  );
  expect(unreachable).toEqual([]);
  expect(CODE_CATALOGUE.size).toBeGreaterThanOrEqual(247);
});

test('reads names and parameters, and writes them back as given', () => {
  for (const text of ['accepted', 'accepted_with_errors:2001', 'rejected:1100', 'message_refused:4104', 'authority_down:3']) {
    const parsed = parseSandboxScenario(text) as SandboxScenario;
    expect(parsed).not.toBeInstanceOf(ScenarioRefusal);
    expect(formatSandboxScenario(parsed)).toBe(text);
  }
  expect(parseSandboxScenario(' answered_after:2 ')).toEqual({ name: 'answered_after', seconds: 2 });
});

test.each([
  ['approved', /not a scenario/],
  ['rejected', /needs a parameter: rejected:1100/],
  ['accepted:1', /takes no parameter/],
  ['rejected:4104', /level record; 4104 is of level message/],
  ['message_refused:1100', /4104|level message or outside_table; 1100 is of level record/],
  ['accepted_with_errors:1100', /level accepted/],
  ['rejected:9999', /not a code/],
  ['authority_down:0', /between 1 and 300/],
  ['answered_after:301', /between 1 and 300/],
])('refuses %s', (text, reason) => {
  const parsed = parseSandboxScenario(text);
  expect(parsed).toBeInstanceOf(ScenarioRefusal);
  expect((parsed as ScenarioRefusal).reason).toMatch(reason);
});

test('says each refusal in Spanish too, for the dashboard', () => {
  expect((parseSandboxScenario('rejected:4104') as ScenarioRefusal).es).toBe(
    'rejected lleva un código de nivel registro; 4104 es de nivel mensaje.',
  );
  expect((parseSandboxScenario('message_refused:2001') as ScenarioRefusal).es).toMatch(
    /de nivel mensaje o fuera de la tabla; 2001 es de nivel aceptado con errores/,
  );
  for (const text of ['approved', 'rejected', 'accepted:1', 'rejected:9999', 'authority_down:0']) {
    expect((parseSandboxScenario(text) as ScenarioRefusal).es).toMatch(/[.]$/);
  }
});

test('expects what the code catalogue prescribes of each answer', () => {
  expect(expectedOutcome({ name: 'rejected', code: 1100 })).toMatchObject({ status: 'rejected', code: 1100, sends: { min: 1, max: 1 } });
  expect(expectedOutcome({ name: 'rejected', code: 1129 })).toMatchObject({ status: 'accepted', sends: { min: 2, max: 2 } });
  expect(expectedOutcome({ name: 'message_refused', code: 4104 }).webhooks).toEqual([
    'invoice.registered',
    'invoice.status_changed',
    'invoice.error',
  ]);
  expect(expectedOutcome({ name: 'authority_down', seconds: 2 }).sends).toEqual({ min: 2, max: null });
  expect(Object.keys(SCENARIO_PARAMETERS).every((name) => (SCENARIO_NAMES as readonly string[]).includes(name))).toBe(true);
});
