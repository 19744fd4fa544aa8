import type { IncomingMessage, ServerResponse } from 'node:http';
import Joi from 'joi';
import type { InvoiceId } from '@vf/core';
import { parseCensusEntries, type CensusEntry } from './census/census-book';
import type { FaultFilter } from './faults/fault-book';
import type { ActiveFault, InjectedFault } from './faults/fault-types';
import { parseFaultFilter, parseFaults } from './faults/parse-fault';
import { JSON_TYPE, readBody, send } from './http-io';
import { RULE_SETS } from './rules/rule-set';
import type { SimulatorContext } from './simulator-context';
import { ENVIRONMENTS, type Environment, type SimulatorBehaviour } from './simulator-types';

const behaviourPatch = Joi.object({
  waitSeconds: Joi.number().min(0).max(9999),
  timestampToleranceSeconds: Joi.number().min(0),
  latencyMs: Joi.number().min(0),
  validateSchema: Joi.boolean(),
  ruleSet: Joi.string().valid(...RULE_SETS),
  clockOffsetSeconds: Joi.number(),
})
  .required()
  .messages({ 'object.unknown': '{{#label}} is not a setting; faults are switched on with POST /__sim/faults' });

/** Checks a behaviour patch from JSON; throws with a readable message on anything unexpected. */
export function parseBehaviourPatch(input: unknown): Partial<SimulatorBehaviour> {
  const { value, error } = behaviourPatch.validate(input, { convert: false });
  if (error) throw new Error(error.message);
  return value as Partial<SimulatorBehaviour>;
}

/** What the test-only routes may change in a running simulator. */
export interface SimulatorControl {
  configure(patch: Partial<SimulatorBehaviour>): void;
  /** Switches faults on; returns them with their ids. */
  inject(faults: InjectedFault | InjectedFault[]): ActiveFault[];
  /** Switches off the faults matching the filter (all without one); returns how many. */
  clearFaults(filter?: FaultFilter): number;
  reset(): void;
  registerViaForm(environment: Environment, id: InvoiceId): void;
  seedCensus(entries: readonly CensusEntry[]): void;
  issueRequirement(nif: string, reference: string): void;
}

/** `{"nif", "reference"}`: a requerimiento the authority issued to the taxpayer. */
export function parseIssuedRequirement(input: unknown): { nif: string; reference: string } {
  const body = (input ?? {}) as { nif?: unknown; reference?: unknown };
  if (typeof body.nif !== 'string' || typeof body.reference !== 'string' || !body.nif || !body.reference) {
    throw new Error('expected {"nif": "...", "reference": "..."}');
  }
  return { nif: body.nif, reference: body.reference };
}

const INVOICE_DATE = /^\d{2}-\d{2}-\d{4}$/;

/** `{"environment"?: "sandbox"|"production", "invoices": [{"issuer_nif", "invoice_number", "invoice_date": "dd-mm-yyyy"}]}` */
export function parseFormInvoices(input: unknown): { environment: Environment; ids: InvoiceId[] } {
  const body = input as { environment?: unknown; invoices?: unknown };
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new Error('expected a JSON object');
  const environment = body.environment ?? 'sandbox';
  if (!(ENVIRONMENTS as readonly unknown[]).includes(environment)) throw new Error(`environment must be one of ${ENVIRONMENTS.join(', ')}`);
  if (!Array.isArray(body.invoices) || body.invoices.length === 0) throw new Error('invoices must be a non-empty array');
  const ids = body.invoices.map((item: unknown, i: number) => {
    const f = (item ?? {}) as Record<string, unknown>;
    const texts = [f.issuer_nif, f.invoice_number, f.invoice_date];
    if (!texts.every((v) => typeof v === 'string' && v.length > 0) || !INVOICE_DATE.test(f.invoice_date as string)) {
      throw new Error(`invoices[${i}] must be {issuer_nif, invoice_number, invoice_date: "dd-mm-yyyy"}`);
    }
    return { issuerNif: f.issuer_nif as string, invoiceNumber: f.invoice_number as string, invoiceDate: f.invoice_date as string };
  });
  return { environment: environment as Environment, ids };
}

type Route = (control: SimulatorControl, body: unknown) => unknown;

/** POST routes: each reads a JSON body (400 with {error} when it is not what the route takes) and answers JSON. */
const POST_ROUTES: Record<string, Route> = {
  '/__sim/configure': (control, body) => {
    control.configure(parseBehaviourPatch(body));
    return undefined;
  },
  '/__sim/faults': (control, body) => ({ added: control.inject(parseFaults(body)) }),
  '/__sim/faults/clear': (control, body) => ({ cleared: control.clearFaults(parseFaultFilter(body)) }),
  '/__sim/form-invoices': (control, body) => {
    const parsed = parseFormInvoices(body);
    for (const id of parsed.ids) control.registerViaForm(parsed.environment, id);
    return { environment: parsed.environment, registered: parsed.ids.length };
  },
  '/__sim/census': (control, body) => {
    const entries = parseCensusEntries(body);
    control.seedCensus(entries);
    return { seeded: entries.length };
  },
  '/__sim/requirements': (control, body) => {
    const issued = parseIssuedRequirement(body);
    control.issueRequirement(issued.nif, issued.reference);
    return { issued };
  },
  '/__sim/reset': (control) => {
    control.reset();
    return undefined;
  },
};

/** Test-only routes under /__sim (same TLS port, so a client certificate is needed here too). */
export async function adminRoute(
  ctx: SimulatorContext,
  control: SimulatorControl,
  path: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<boolean> {
  const state = () => ({ behaviour: ctx.behaviour, faults: ctx.faults.list(), counters: ctx.counters });
  if (path === '/__sim/state' && req.method === 'GET') {
    send(res, 200, JSON_TYPE, JSON.stringify(state()));
    return true;
  }
  if (path === '/__sim/census' && req.method === 'GET') {
    send(res, 200, JSON_TYPE, JSON.stringify({ entries: ctx.census.list() }));
    return true;
  }
  if (path === '/__sim/requests' && req.method === 'GET') {
    send(res, 200, JSON_TYPE, JSON.stringify({ requests: ctx.requests }));
    return true;
  }
  const route = POST_ROUTES[path];
  if (!route || req.method !== 'POST') return false;
  let result: unknown;
  try {
    const text = await readBody(req, 64 * 1024);
    result = route(control, text.trim() ? JSON.parse(text) : {});
  } catch (error) {
    send(res, 400, JSON_TYPE, JSON.stringify({ error: (error as Error).message }));
    return true;
  }
  send(res, 200, JSON_TYPE, JSON.stringify(result ?? state()));
  return true;
}
