import { Router } from 'express';
import Joi from 'joi';
import { currentAccount } from '../auth/require-api-key';
import { ApiError } from '../errors/api-error';
import { problemBody } from '../errors/error-handler';
import { methodNotAllowed } from '../http/method-not-allowed';
import { itemAnswersFor, sendUnwrittenAnswer } from '../idempotency/sealed-answer';
import { batchRegistrationResponse } from './invoice-response-schemas';
import type { RouteDoc } from '../openapi/route-doc';
import { MAX_BATCH_ITEMS, registeredData, type InvoiceRegistrationService } from './invoice-registration-service';
import { invoiceRequestSchema } from './invoice-request-schema';
import { parseWith } from '../http/parse-with';
import { checkRecipients, recipientCheckQuery, type CheckedRecipients } from '../tax-ids/recipient-check';
import { renderTaxIdAnswer } from '../tax-ids/render-tax-id-answer';
import type { TaxIdCheckService } from '../tax-ids/tax-id-check-service';

type BatchResult = { index: number; status: number; data?: unknown; problem?: Record<string, unknown>; recipient_check?: unknown[] };

const NONE_KEPT: ReadonlyMap<number, unknown> = new Map();

const notABatch = () =>
  ApiError.validation(
    [{ field: '', code: 'invalid_batch', message: `must be a JSON array of 1 to ${MAX_BATCH_ITEMS.toLocaleString('en')} invoices` }],
    `Send the invoices as a JSON array of 1 to ${MAX_BATCH_ITEMS.toLocaleString('en')} items; nothing was registered.`,
  );

/** Where invoiceBatchRoutes is mounted, below /api/v1. */
export const BATCH_PATH = '/invoices/batch';

/**
 * POST /invoices/batch: each item is registered or refused on its own, exactly as POST /invoices would; the answer
 * lists every item's result in request order. 201 when all were registered, 207 Multi-Status otherwise. Mounted at
 * BATCH_PATH.
 */
export function invoiceBatchRoutes(registration: InvoiceRegistrationService, taxIdChecks: TaxIdCheckService): Router {
  const router = Router();
  router
    .route('/')
    .post(async (req, res) => {
      const items: unknown = req.body;
      if (!Array.isArray(items) || items.length === 0 || items.length > MAX_BATCH_ITEMS) throw notABatch();
      const account = currentAccount(res);
      const mode = parseWith(recipientCheckQuery, req.query).recipient_check ?? account.recipientCheck ?? undefined;
      // With an Idempotency-Key, each registered item's answer commits with the item; a retry after a lost batch
      // answer takes the items a first run registered from there and runs only the others (which wrote nothing).
      const answers = itemAnswersFor(res, registeredData);
      const kept = answers ? await answers.kept(items.length) : NONE_KEPT;
      let run = items.flatMap((_, at) => (kept.has(at) ? [] : [at]));
      // One census call for every Spanish recipient of the items to run (VIES per VAT number), before any enters a chain.
      const checked = new Map<number, CheckedRecipients>();
      if (mode) {
        const results = await checkRecipients(
          taxIdChecks,
          account.id,
          run.map((at) => items[at]),
          mode,
        );
        results.forEach((c, n) => checked.set(run[n]!, c));
        run = run.filter((at) => !checked.get(at)?.refusal);
      }
      const outcomes = await registration.registerBatch(
        account,
        run.map((at) => items[at]),
        req.log,
        answers && ((n) => answers.sealFor(run[n]!)),
      );
      await taxIdChecks.keepOnInvoices(
        outcomes.flatMap((o, n) => (o.ok ? [{ invoiceId: o.registered.id, answers: checked.get(run[n]!)?.answers ?? [] }] : [])),
      );
      const requestId = String(req.id ?? '');
      const results: BatchResult[] = new Array(items.length);
      for (const [index, data] of kept) results[index] = { index, status: 201, data };
      for (const [index, c] of checked) if (c.refusal) results[index] = { index, status: 422, problem: problemBody(c.refusal, requestId) };
      outcomes.forEach((o, n) => {
        const index = run[n]!;
        const recipientCheck = checked.get(index) && { recipient_check: checked.get(index)!.answers.map(renderTaxIdAnswer) };
        results[index] = o.ok
          ? { index, status: 201, data: registeredData(o.registered), ...recipientCheck }
          : { index, status: o.error.status, problem: problemBody(o.error, requestId), ...recipientCheck };
      });
      await sendUnwrittenAnswer(res, batchAnswer(results));
    })
    .all(methodNotAllowed(['POST']));
  return router;
}

function batchAnswer(results: BatchResult[]) {
  const registered = results.filter((r) => r.status === 201).length;
  const failed = results.length - registered;
  return {
    status: failed === 0 ? 201 : 207,
    body: {
      message:
        failed === 0
          ? `${registered} invoices registered and queued for submission to the tax authority.`
          : `${registered} of ${results.length} invoices registered and queued; ${failed} refused (see each result).`,
      registered,
      failed,
      results,
    },
  };
}

export const invoiceBatchRouteDocs: RouteDoc[] = [
  {
    method: 'post',
    operationId: 'registerInvoiceBatch',
    path: BATCH_PATH,
    tag: 'Invoices',
    summary: 'Register up to 1,000 invoices in one request',
    description:
      'Each item is validated and registered on its own, as `POST /invoices` would; an invalid, duplicate or over-quota item is refused alone. ' +
      'The items of one taxpayer are appended to its chain in one transaction, in array order. Each item counts against the monthly quota. ' +
      'Status 201 when every item was registered, 207 Multi-Status otherwise: read each result. Bodies up to 10 MB. ' +
      'With `recipient_check`, the Spanish recipients of every item are checked in one census call first (their EU VAT ' +
      'numbers with VIES, a few at a time), and each result says what they said of its recipients; with `refuse`, an item ' +
      'with a recipient the census or VIES does not identify is refused alone (`recipient_not_in_census`, ' +
      '`recipient_not_in_vies`). An item of a sandbox taxpayer may name a sandbox scenario in `sandbox_scenario`; ' +
      'an unknown one, or one on a production taxpayer, refuses that item alone (400).',
    query: recipientCheckQuery,
    body: Joi.array()
      .items(
        invoiceRequestSchema.keys({
          sandbox_scenario: Joi.string().description(
            'Sandbox taxpayers only: the item’s sandbox scenario, as the Sandbox-Scenario header names it (GET /sandbox/scenarios); outside the invoice.',
          ),
        }),
      )
      .min(1)
      .max(MAX_BATCH_ITEMS),
    responses: {
      201: { description: 'Every item registered and queued.', json: batchRegistrationResponse },
      207: { description: 'Some items (or all) refused; each result says which and why.', json: batchRegistrationResponse },
    },
    problems: ['validation_failed'],
  },
];
