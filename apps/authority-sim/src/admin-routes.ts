import type { IncomingMessage, ServerResponse } from 'node:http';
import { JSON_TYPE, readBody, send } from './http-io';
import type { SimulatorContext } from './simulator-context';
import type { InvoiceId } from '@vf/core';
import {
  DEFAULT_BEHAVIOUR,
  ENVIRONMENTS,
  FAULT_KINDS,
  type Environment,
  type RejectPlan,
  type SimulatorBehaviour,
} from './simulator-types';

const NUMERIC = ['waitSeconds', 'timestampToleranceSeconds', 'latencyMs'] as const;
const BOOLEAN = ['validateSchema'] as const;

function parseRejectPlan(value: unknown): RejectPlan {
  const plan = value as { next?: unknown; code?: unknown };
  if (!plan || typeof plan !== 'object' || Array.isArray(plan)) throw new Error('rejectRecords must be {next, code}');
  if (!Number.isInteger(plan.next) || (plan.next as number) < 0) throw new Error('rejectRecords.next must be an integer >= 0');
  // A record-level code is four digits (errores.properties); anything else could not be answered in CodigoErrorRegistro sensibly.
  if (!Number.isInteger(plan.code) || (plan.code as number) < 1000 || (plan.code as number) > 9999) {
    throw new Error('rejectRecords.code must be an AEAT error code (an integer from 1000 to 9999)');
  }
  return { next: plan.next as number, code: plan.code as number };
}

/** Checks a behaviour patch from JSON; throws with a readable message on anything unexpected. */
export function parseBehaviourPatch(input: unknown): Partial<SimulatorBehaviour> {
  if (!input || typeof input !== 'object' || Array.isArray(input)) throw new Error('expected a JSON object');
  const patch: Partial<SimulatorBehaviour> = {};
  for (const [key, value] of Object.entries(input)) {
    if ((NUMERIC as readonly string[]).includes(key)) {
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new Error(`${key} must be a number >= 0`);
      patch[key as (typeof NUMERIC)[number]] = value;
    } else if ((BOOLEAN as readonly string[]).includes(key)) {
      if (typeof value !== 'boolean') throw new Error(`${key} must be true or false`);
      patch[key as (typeof BOOLEAN)[number]] = value;
    } else if ((FAULT_KINDS as readonly string[]).includes(key)) {
      const plan = value as { next?: unknown; probability?: unknown };
      if (!plan || typeof plan !== 'object') throw new Error(`${key} must be {next?, probability?}`);
      if (plan.next !== undefined && (!Number.isInteger(plan.next) || (plan.next as number) < 0))
        throw new Error(`${key}.next must be an integer >= 0`);
      if (plan.probability !== undefined && (typeof plan.probability !== 'number' || plan.probability < 0 || plan.probability > 1)) {
        throw new Error(`${key}.probability must be between 0 and 1`);
      }
      patch[key as (typeof FAULT_KINDS)[number]] = {
        next: plan.next as number | undefined,
        probability: plan.probability as number | undefined,
      };
    } else if (key === 'rejectRecords') {
      patch.rejectRecords = parseRejectPlan(value);
    } else {
      throw new Error(`unknown setting ${key}; known: ${Object.keys(DEFAULT_BEHAVIOUR).join(', ')}`);
    }
  }
  return patch;
}

/** What the test-only routes may change in a running simulator. */
export interface SimulatorControl {
  configure(patch: Partial<SimulatorBehaviour>): void;
  reset(): void;
  registerViaForm(environment: Environment, id: InvoiceId): void;
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

/** Test-only routes under /__sim (same TLS port, so a client certificate is needed here too). */
export async function adminRoute(
  ctx: SimulatorContext,
  control: SimulatorControl,
  path: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<boolean> {
  if (path === '/__sim/state' && req.method === 'GET') {
    send(res, 200, JSON_TYPE, JSON.stringify({ behaviour: ctx.behaviour, counters: ctx.counters }));
    return true;
  }
  if (path === '/__sim/configure' && req.method === 'POST') {
    try {
      control.configure(parseBehaviourPatch(JSON.parse((await readBody(req, 64 * 1024)) || '{}')));
    } catch (error) {
      send(res, 400, JSON_TYPE, JSON.stringify({ error: (error as Error).message }));
      return true;
    }
    send(res, 200, JSON_TYPE, JSON.stringify({ behaviour: ctx.behaviour }));
    return true;
  }
  if (path === '/__sim/form-invoices' && req.method === 'POST') {
    let parsed: { environment: Environment; ids: InvoiceId[] };
    try {
      parsed = parseFormInvoices(JSON.parse((await readBody(req, 64 * 1024)) || '{}'));
    } catch (error) {
      send(res, 400, JSON_TYPE, JSON.stringify({ error: (error as Error).message }));
      return true;
    }
    for (const id of parsed.ids) control.registerViaForm(parsed.environment, id);
    send(res, 200, JSON_TYPE, JSON.stringify({ environment: parsed.environment, registered: parsed.ids.length }));
    return true;
  }
  if (path === '/__sim/reset' && req.method === 'POST') {
    control.reset();
    send(res, 200, JSON_TYPE, JSON.stringify({ behaviour: ctx.behaviour, counters: ctx.counters }));
    return true;
  }
  return false;
}
