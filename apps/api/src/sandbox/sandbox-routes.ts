import { Router } from 'express';
import Joi from 'joi';
import {
  CODE_CATALOGUE,
  expectedOutcome,
  formatSandboxScenario,
  SANDBOX_SCENARIO_HEADER,
  SCENARIO_NAMES,
  SCENARIO_PARAMETERS,
  SCENARIO_TEXTS,
  WEBHOOK_EVENT_TYPES,
  AUTHORITY_STATUSES,
  type SandboxScenario,
  type ScenarioExpectation,
  type ScenarioName,
} from '@vf/core';
import { methodNotAllowed } from '../http/method-not-allowed';
import type { RouteDoc } from '../openapi/route-doc';
import { envelope } from '../shared/answer-schema-parts';
import { SCENARIO_FORMS } from './sandbox-scenario-request';

function renderExpectation(e: ScenarioExpectation) {
  return { final_status: e.status, authority_code: e.code, sends: e.sends, webhooks: e.webhooks };
}

function exampleOf(name: ScenarioName): SandboxScenario {
  const parameter = SCENARIO_PARAMETERS[name];
  if (!parameter) return { name };
  return parameter.kind === 'code' ? { name, code: parameter.example } : { name, seconds: parameter.example };
}

/** One entry of the catalogue: its form, parameter, what to expect (per code, for a code parameter) and its words. */
function renderScenario(name: ScenarioName) {
  const parameter = SCENARIO_PARAMETERS[name];
  const example = exampleOf(name);
  const codes =
    parameter?.kind === 'code'
      ? [...CODE_CATALOGUE.values()]
          .filter((b) => parameter.levels.includes(b.level))
          .map((b) => ({ code: b.code, level: b.level, ...renderExpectation(expectedOutcome({ name, code: b.code })) }))
      : undefined;
  return {
    name,
    form: SCENARIO_FORMS[SCENARIO_NAMES.indexOf(name)],
    example: formatSandboxScenario(example),
    parameter: parameter
      ? parameter.kind === 'code'
        ? { kind: 'code', levels: parameter.levels }
        : { kind: 'seconds', min: parameter.min, max: parameter.max }
      : null,
    expect: renderExpectation(expectedOutcome(example)),
    ...(codes && { codes }),
    explanation: SCENARIO_TEXTS[name],
  };
}

/** The catalogue does not change while the process runs: rendered once. */
let rendered: ReturnType<typeof renderScenario>[] | undefined;

/** GET /sandbox/scenarios: the catalogue of scenarios a sandbox taxpayer's requests may name. */
export function sandboxRoutes(): Router {
  const router = Router();
  router
    .route('/sandbox/scenarios')
    .get((_req, res) => {
      rendered ??= SCENARIO_NAMES.map(renderScenario);
      res.json({ data: rendered });
    })
    .all(methodNotAllowed(['GET']));
  return router;
}

/** The Sandbox-Scenario request header, as the OpenAPI document shows it on the routes that read it. */
export const scenarioHeaderDoc = {
  name: SANDBOX_SCENARIO_HEADER,
  description:
    'Sandbox taxpayers only: the record goes to the simulator (never to the authority), on a chain of its own, and is answered as the scenario says. One of the names below, with its parameter after a colon; the catalogue with what to expect: GET /sandbox/scenarios.',
  schema: {
    type: 'string',
    pattern: `^(${SCENARIO_NAMES.map((n) => (SCENARIO_PARAMETERS[n] ? `${n}:\\d+` : n)).join('|')})$`,
    examples: SCENARIO_NAMES.map((n) => formatSandboxScenario(exampleOf(n))),
  },
};

const expectation = Joi.object({
  final_status: Joi.string()
    .valid(...AUTHORITY_STATUSES)
    .required(),
  authority_code: Joi.number().integer().allow(null).required(),
  sends: Joi.object({ min: Joi.number().integer().required(), max: Joi.number().integer().allow(null).required() })
    .required()
    .description('How many messages carry the record (max null: as many as the outage lasts).'),
  webhooks: Joi.array()
    .items(Joi.string().valid(...WEBHOOK_EVENT_TYPES))
    .required()
    .description('The event types the invoice fires, in the order each first comes.'),
});
const words = Joi.object({ es: Joi.string().required(), en: Joi.string().required() });

export const sandboxScenario = Joi.object({
  name: Joi.string()
    .valid(...SCENARIO_NAMES)
    .required(),
  form: Joi.string().required().description('How a request names it: `rejected:<code>`.'),
  example: Joi.string().required(),
  parameter: Joi.object({
    kind: Joi.string().valid('code', 'seconds').required(),
    levels: Joi.array().items(Joi.string()),
    min: Joi.number().integer(),
    max: Joi.number().integer(),
  }).allow(null),
  expect: expectation.required().description('What the example ends as.'),
  codes: Joi.array().items(expectation.keys({ code: Joi.number().integer().required(), level: Joi.string().required() })),
  explanation: words.required(),
});

export const sandboxRouteDocs: RouteDoc[] = [
  {
    method: 'get',
    operationId: 'listSandboxScenarios',
    path: '/sandbox/scenarios',
    tag: 'Sandbox',
    summary: 'The sandbox scenarios: what each makes the (simulated) authority answer, and what to expect',
    description: `Name one in the \`${SANDBOX_SCENARIO_HEADER}\` header of a registration, correction or cancellation of a sandbox taxpayer, or in a batch item's \`sandbox_scenario\`.`,
    responses: { 200: { description: 'Every scenario, in catalogue order.', json: envelope(Joi.array().items(sandboxScenario)) } },
    problems: [],
  },
];
