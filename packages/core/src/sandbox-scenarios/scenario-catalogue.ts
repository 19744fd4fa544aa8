import { CODE_CATALOGUE, type CodeBehaviour } from '../authority-codes';

/**
 * The request header (registration, correction, cancellation) that names a sandbox scenario; a batch item names it in
 * its `sandbox_scenario` field, outside the invoice. HMRC's `Gov-Test-Scenario` is the precedent.
 */
export const SANDBOX_SCENARIO_HEADER = 'Sandbox-Scenario';

/**
 * What the simulator answers a record of a scenario chain (docs/decisions/0040-scenario-chains-apart.md):
 * - `accepted`: Correcto;
 * - `accepted_with_errors:<code>`: AceptadoConErrores with an accepted-level code (2000-2009…);
 * - `rejected:<code>`: the record refused with a record-level code, on its first send;
 * - `message_refused:<code>`: the whole message refused with a message-level code (or 102, 20009, 401), on its first send;
 * - `reply_lost`: stored, the connection dropped; the Consulta service fails once; the resend meets 3000; Consulta settles it;
 * - `stored_then_failed`: stored, then a Server fault (Codigo[102]); Consulta settles it;
 * - `answered_after:<seconds>`: the answer comes that many seconds late;
 * - `authority_down:<seconds>`: every request of the taxpayer's scenario chain answers HTML 503 for that long;
 * - `duplicate_without_detail`: the record is held already and the answer is 3000 without RegistroDuplicado.
 */
export const SCENARIO_NAMES = [
  'accepted',
  'accepted_with_errors',
  'rejected',
  'message_refused',
  'reply_lost',
  'stored_then_failed',
  'answered_after',
  'authority_down',
  'duplicate_without_detail',
] as const;
export type ScenarioName = (typeof SCENARIO_NAMES)[number];

/** A scenario as named by a request: `name`, or `name:<parameter>` (a code or a number of seconds). */
export interface SandboxScenario {
  name: ScenarioName;
  code?: number;
  seconds?: number;
}

type CodeLevel = CodeBehaviour['level'];

/** What a scenario's parameter is: an authority code of some levels, or seconds in a range. */
export type ScenarioParameter =
  { kind: 'code'; levels: readonly CodeLevel[]; example: number } | { kind: 'seconds'; min: number; max: number; example: number };

/** Longest wait a scenario may ask for: past the service's own timeout, so both of its outcomes can be rehearsed. */
export const MAX_SCENARIO_SECONDS = 300;

export const SCENARIO_PARAMETERS: Readonly<Partial<Record<ScenarioName, ScenarioParameter>>> = {
  accepted_with_errors: { kind: 'code', levels: ['accepted'], example: 2001 },
  rejected: { kind: 'code', levels: ['record'], example: 1100 },
  message_refused: { kind: 'code', levels: ['message', 'outside_table'], example: 4104 },
  answered_after: { kind: 'seconds', min: 1, max: MAX_SCENARIO_SECONDS, example: 2 },
  authority_down: { kind: 'seconds', min: 1, max: MAX_SCENARIO_SECONDS, example: 3 },
};

/**
 * A scenario the catalogue cannot take, and why: the API answers it as `400 invalid_sandbox_scenario` (`reason`, the
 * API's English); the dashboard says it in Spanish first (`es`).
 */
export class ScenarioRefusal {
  constructor(
    readonly reason: string,
    readonly es: string,
  ) {}
}

/** The code levels as the Spanish refusal names them. */
const LEVEL_ES: Record<CodeLevel, string> = {
  accepted: 'aceptado con errores',
  record: 'registro',
  message: 'mensaje',
  outside_table: 'fuera de la tabla',
};

const FORM = /^([a-z_]+)(?::(\d{1,6}))?$/;

/** Reads `name` or `name:<parameter>`; a refusal says what is wrong (unknown name, missing or wrong-level code…). */
export function parseSandboxScenario(text: string): SandboxScenario | ScenarioRefusal {
  const match = FORM.exec(text.trim());
  const name = match?.[1] as ScenarioName | undefined;
  if (!match || !name || !(SCENARIO_NAMES as readonly string[]).includes(name)) {
    return new ScenarioRefusal(`"${text}" is not a scenario of the catalogue`, `«${text}» no es un escenario del catálogo.`);
  }
  const parameter = SCENARIO_PARAMETERS[name];
  const value = match[2] === undefined ? undefined : Number(match[2]);
  if (!parameter) {
    if (value === undefined) return { name };
    return new ScenarioRefusal(`the scenario ${name} takes no parameter`, `El escenario ${name} no lleva código ni segundos.`);
  }
  if (value === undefined) {
    return new ScenarioRefusal(
      `the scenario ${name} needs a parameter: ${name}:${parameter.example}`,
      `El escenario ${name} necesita un parámetro: ${name}:${parameter.example}.`,
    );
  }
  if (parameter.kind === 'seconds') {
    if (value < parameter.min || value > parameter.max) {
      return new ScenarioRefusal(
        `${name} takes between ${parameter.min} and ${parameter.max} seconds`,
        `${name} lleva entre ${parameter.min} y ${parameter.max} segundos.`,
      );
    }
    return { name, seconds: value };
  }
  const level = CODE_CATALOGUE.get(value)?.level;
  if (level === undefined) {
    return new ScenarioRefusal(
      `${value} is not a code of the authority's error table`,
      `${value} no es un código de la tabla de errores de la AEAT.`,
    );
  }
  if (!parameter.levels.includes(level)) {
    return new ScenarioRefusal(
      `${name} takes a code of level ${parameter.levels.join(' or ')}; ${value} is of level ${level}`,
      `${name} lleva un código de nivel ${parameter.levels.map((l) => LEVEL_ES[l]).join(' o ')}; ${value} es de nivel ${LEVEL_ES[level]}.`,
    );
  }
  return { name, code: value };
}

/** The scenario as a request names it, and as the invoice shows it. */
export function formatSandboxScenario(scenario: SandboxScenario): string {
  const parameter = scenario.code ?? scenario.seconds;
  return parameter === undefined ? scenario.name : `${scenario.name}:${parameter}`;
}

/** The scenario a stored text names; throws on one the catalogue does not take (a stored one always is). */
export function storedSandboxScenario(text: string): SandboxScenario {
  const parsed = parseSandboxScenario(text);
  if (parsed instanceof ScenarioRefusal) throw new Error(`stored sandbox scenario: ${parsed.reason}`);
  return parsed;
}
