import { Router, type Request } from 'express';
import Joi from 'joi';
import { classifyOperation } from '@vf/core';
import { EXACT_TOTAL_LIMIT, type AccountWithPlan } from '@vf/db';
import { currentAccount, currentAccountOrKey } from '../auth/require-api-key';
import { ApiError } from '../errors/api-error';
import { sealedAnswerFor, sendAnswer, sendUnwrittenAnswer, type JsonAnswer } from '../idempotency/sealed-answer';
import { methodNotAllowed } from '../http/method-not-allowed';
import { parseWith } from '../http/parse-with';
import { shapeIssuesBeyond } from '../http/shape-issues-beyond';
import type { InvoiceExportService } from './invoice-export-service';
import { invoiceExportSchema, invoiceListSchema } from './invoice-list-schema';
import type { InvoiceCancellationService } from './invoice-cancellation-service';
import type { InvoiceCorrectionService } from './invoice-correction-service';
import type { InvoiceQueryService } from './invoice-query-service';
import { RecipientCheckDefault, registeredAnswer, type InvoiceRegistrationService } from './invoice-registration-service';
import { recipientCheckQuery } from '../tax-ids/recipient-check';
import type { CheckedRegistrationService } from './checked-registration-service';
import { taxIdAnswer } from '../tax-ids/tax-id-check-schemas';
import type { QueuedRecord } from './queued-record';
import { registerCheckedInvoice } from './register-checked-invoice';
import {
  classificationResponse,
  invoiceDetail,
  invoiceSummary,
  record,
  registeredInvoiceResponse,
  submission,
  validationResponse,
} from './invoice-response-schemas';
import { envelope, pageOf } from '../shared/answer-schema-parts';
import type { RouteDoc } from '../openapi/route-doc';
import { cancelSchema } from './invoice-cancellation-service';
import { classifyRequestSchema, invoiceRequestSchema } from './invoice-request-schema';
import { renderInvoiceDetail, renderInvoiceSummary, renderRecord, renderSubmission } from './invoice-view';
import { requestedScenario } from '../sandbox/sandbox-scenario-request';
import { scenarioHeaderDoc } from '../sandbox/sandbox-routes';

/** The request's `Sandbox-Scenario`, checked before anything else is (a 400 listing the valid names). */
const scenarioOf = (req: Request) => requestedScenario(req.headers['sandbox-scenario']);

function recordAnswer(message: string): (r: QueuedRecord) => JsonAnswer {
  return (r) => ({ status: 201, location: `/api/v1/invoices/${r.invoiceId}`, body: { message, data: renderRecord(r) } });
}

/**
 * A registration without an Idempotency-Key checks its API key in its chain read (requireApiKey's `checkedByRoute`):
 * a client registering one invoice at a time waits for one round trip fewer. With a key, the idempotency claim needs
 * the account first.
 */
export function registrationChecksItsKey(req: Request): boolean {
  return (
    req.method === 'POST' &&
    req.path === '/invoices' &&
    req.headers['idempotency-key'] === undefined &&
    req.headers['sandbox-scenario'] === undefined &&
    req.query.recipient_check === undefined
  );
}

const correctedAnswer = recordAnswer('Correction (subsanación) appended to the chain and queued for submission.');
const cancelledAnswer = recordAnswer('Cancellation (anulación) appended to the chain and queued for submission.');

export function invoiceRoutes(
  registration: InvoiceRegistrationService,
  correction: InvoiceCorrectionService,
  queries: InvoiceQueryService,
  cancellation: InvoiceCancellationService,
  exports: InvoiceExportService,
  checkedRegistration: CheckedRegistrationService,
): Router {
  const router = Router();

  // Fixed paths before /invoices/:id, which would otherwise claim them.
  dryRunRoutes(router, registration);
  router
    .route('/invoices/export')
    .get(async (req, res) => {
      const { decimal, format: _csv, ...filters } = parseWith(invoiceExportSchema, req.query);
      // Before the first byte a failure is an ordinary problem answer; after it, the error handler cuts the download.
      await exports.exportInvoicesCsv(currentAccount(res).id, filters, { decimal }, res, () =>
        res.type('text/csv; charset=utf-8').attachment(`invoices-${new Date().toISOString().slice(0, 10)}.csv`),
      );
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/invoices')
    .get(async (req, res) => {
      const page = await queries.list(currentAccount(res).id, parseWith(invoiceListSchema, req.query));
      res.json({
        data: page.items.map(renderInvoiceSummary),
        next_cursor: page.nextCursor,
        total: page.total,
        total_exact: page.totalExact,
      });
    })
    .post(async (req, res) => {
      const scenario = scenarioOf(req);
      const owner = currentAccountOrKey(res);
      // The request's own choice, else the account's default (an account not read yet: its key's chain read says). The
      // query is validated only when it asks: a schema run for nothing on every registration costs a lone one.
      const asked = req.query.recipient_check === undefined ? undefined : parseWith(recipientCheckQuery, req.query).recipient_check;
      const mode = asked ?? ('keyDigest' in owner ? undefined : owner.recipientCheck);
      if (mode) return registerCheckedInvoice(checkedRegistration, req, res, owner as AccountWithPlan, mode, scenario);
      try {
        const r = await registration.register(owner, req.body, req.log, sealedAnswerFor(res, registeredAnswer), scenario);
        sendAnswer(res, registeredAnswer, r);
      } catch (err) {
        if (!(err instanceof RecipientCheckDefault) || !('keyDigest' in owner)) throw err;
        const account = await owner.account();
        await registerCheckedInvoice(checkedRegistration, req, res, account, account.recipientCheck, scenario);
      }
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/invoices/:id')
    .get(async (req, res) => {
      res.json({ data: renderInvoiceDetail(await queries.get(currentAccount(res).id, req.params.id)) });
    })
    .put(async (req, res) => {
      const scenario = scenarioOf(req);
      const answer = sealedAnswerFor(res, correctedAnswer);
      const r = await correction.correct(currentAccount(res), req.params.id, req.body, req.log, answer, scenario);
      sendAnswer(res, correctedAnswer, r);
    })
    .all(methodNotAllowed(['GET', 'PUT']));

  router
    .route('/invoices/:id/cancel')
    .post(async (req, res) => {
      const scenario = scenarioOf(req);
      const answer = sealedAnswerFor(res, cancelledAnswer);
      const r = await cancellation.cancel(currentAccount(res), req.params.id, req.body, req.log, answer, scenario);
      sendAnswer(res, cancelledAnswer, r);
    })
    .all(methodNotAllowed(['POST']));

  recordRoutes(router, queries);
  return router;
}

/** What answers about an invoice without writing it: `/validate` and `/classify`. */
function dryRunRoutes(router: Router, registration: InvoiceRegistrationService): void {
  router
    .route('/invoices/validate')
    .post(async (req, res) => {
      const warnings = await registration.validate(currentAccount(res).id, req.body);
      await sendUnwrittenAnswer(res, { status: 200, body: { data: { valid: true, warnings } } });
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/invoices/classify')
    .post(async (req, res) => {
      // One pass: the domain rules and the documented shape (invoice-request-schema.ts) answer together.
      const result = classifyOperation(req.body);
      const shape = shapeIssuesBeyond(classifyRequestSchema, req.body ?? {}, result.valid ? [] : result.errors);
      if (!result.valid) throw ApiError.validation([...result.errors, ...shape], 'The operation cannot be classified; see errors.');
      if (shape.length > 0) throw ApiError.validation(shape);
      await sendUnwrittenAnswer(res, { status: 200, body: { data: result.data } });
    })
    .all(methodNotAllowed(['POST']));
}

/** An invoice's records as sent, and the exchanges that carried them. */
function recordRoutes(router: Router, queries: InvoiceQueryService): void {
  router
    .route('/invoices/:id/records/:recordId/xml')
    .get(async (req, res) => {
      res.type('application/xml').send(await queries.recordXml(currentAccount(res).id, req.params.id, req.params.recordId));
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/invoices/:id/submissions')
    .get(async (req, res) => {
      res.json({ data: (await queries.submissions(currentAccount(res).id, req.params.id)).map(renderSubmission) });
    })
    .all(methodNotAllowed(['GET']));
}

// Codes every alta (registration or correction) can answer: the request's content and ownership.
const ALTA_PROBLEMS = [
  'validation_failed',
  'taxpayer_not_found',
  'system_not_found',
  'system_single_taxpayer',
  'system_verifactu_only',
  'signing_certificate_unusable',
] as const;
// A request naming a sandbox scenario: an unknown one, a production taxpayer, an invoice registered without one.
const SCENARIO_PROBLEMS = ['invalid_sandbox_scenario', 'sandbox_scenario_in_production', 'sandbox_scenario_not_applicable'] as const;
const CSV_COLUMNS =
  'invoice_number;invoice_date;invoice_type;recipient_name;recipient_nif;base_amount;total_tax_amount;total_amount;authority_status;authority_code;authority_csv;qr_url;created_at';

export const invoiceRouteDocs: RouteDoc[] = [
  {
    method: 'post',
    operationId: 'validateInvoice',
    path: '/invoices/validate',
    tag: 'Invoices',
    summary: 'Dry run: every check a registration makes, nothing stored',
    body: invoiceRequestSchema,
    responses: { 200: { description: 'Valid; warnings the authority would give.', json: validationResponse } },
    problems: [...ALTA_PROBLEMS],
  },
  {
    method: 'post',
    operationId: 'classifySale',
    path: '/invoices/classify',
    tag: 'Invoices',
    summary: 'Suggest operation type, regime and tax for a sale',
    description:
      "From where the buyer is (country, territory) and what identifies it, the sale's tax treatment and the breakdown line to register it with; see docs/api.md.",
    body: classifyRequestSchema,
    responses: { 200: { description: 'The suggested classification.', json: classificationResponse } },
    problems: ['validation_failed'],
  },
  {
    method: 'get',
    operationId: 'exportInvoices',
    path: '/invoices/export',
    tag: 'Invoices',
    summary: 'Export the invoices matching the list’s filters as CSV (streamed)',
    description: `UTF-8 with BOM, \`;\` separated, CRLF lines, one row per invoice in the list's sort. Columns: ${CSV_COLUMNS}.`,
    query: invoiceExportSchema,
    responses: {
      200: {
        description: 'The CSV file, as an attachment.',
        media: { 'text/csv': { schema: { type: 'string' } } },
        headers: { 'Content-Disposition': 'attachment; filename="invoices-YYYY-MM-DD.csv"' },
      },
    },
    problems: ['validation_failed'],
  },
  {
    method: 'get',
    operationId: 'listInvoices',
    path: '/invoices',
    tag: 'Invoices',
    summary: 'List invoices, one row per invoice in its current state',
    query: invoiceListSchema,
    responses: {
      200: {
        description: 'A page of invoices and the number matching the filters.',
        json: pageOf(invoiceSummary, {
          total: Joi.number()
            .integer()
            .min(0)
            .required()
            .description(
              `Invoices matching the filters, on every page: counted exactly up to ${EXACT_TOTAL_LIMIT.toLocaleString('en')}; past that, an estimate (see total_exact).`,
            ),
          total_exact: Joi.boolean()
            .required()
            .description(
              `false when more than ${EXACT_TOTAL_LIMIT.toLocaleString('en')} invoices match: total is then PostgreSQL's estimate of how many, at least ${(EXACT_TOTAL_LIMIT + 1).toLocaleString('en')}.`,
            ),
        }),
      },
    },
    problems: ['validation_failed'],
  },
  {
    method: 'post',
    operationId: 'registerInvoice',
    path: '/invoices',
    tag: 'Invoices',
    summary: 'Register an invoice (alta): validate, chain, queue for the authority',
    query: recipientCheckQuery,
    requestHeaders: [scenarioHeaderDoc],
    body: invoiceRequestSchema,
    responses: {
      201: {
        description:
          'Registered and queued; with `recipient_check`, what the census said of each Spanish recipient and VIES of each EU VAT number.',
        json: registeredInvoiceResponse.keys({ recipient_check: Joi.array().items(taxIdAnswer) }),
        headers: { Location: 'The invoice’s URL.' },
      },
    },
    problems: [
      ...ALTA_PROBLEMS,
      ...SCENARIO_PROBLEMS,
      'duplicate_invoice',
      'quota_exceeded',
      'recipient_not_in_census',
      'recipient_not_in_vies',
    ],
  },
  {
    method: 'get',
    operationId: 'getInvoice',
    path: '/invoices/:id',
    tag: 'Invoices',
    summary: 'One invoice: current state, records and history',
    responses: { 200: { description: 'The invoice.', json: envelope(invoiceDetail) } },
    problems: ['invoice_not_found'],
  },
  {
    method: 'put',
    operationId: 'correctInvoice',
    path: '/invoices/:id',
    tag: 'Invoices',
    summary: 'Correct an invoice (subsanación), or reactivate a cancelled one: a new record with the full corrected content',
    requestHeaders: [scenarioHeaderDoc],
    body: invoiceRequestSchema,
    responses: {
      201: { description: 'Correction appended and queued.', json: envelope(record), headers: { Location: 'The invoice’s URL.' } },
    },
    problems: [...ALTA_PROBLEMS, ...SCENARIO_PROBLEMS, 'invoice_not_found', 'invoice_awaiting_authority', 'invoice_in_other_environment'],
  },
  {
    method: 'post',
    operationId: 'cancelInvoice',
    path: '/invoices/:id/cancel',
    tag: 'Invoices',
    summary: 'Cancel an invoice (anulación)',
    requestHeaders: [scenarioHeaderDoc],
    body: cancelSchema,
    responses: {
      201: { description: 'Cancellation appended and queued.', json: envelope(record), headers: { Location: 'The invoice’s URL.' } },
    },
    problems: [
      'validation_failed',
      ...SCENARIO_PROBLEMS,
      'invoice_not_found',
      'already_cancelled',
      'invoice_awaiting_authority',
      'invoice_in_other_environment',
    ],
  },
  {
    method: 'get',
    operationId: 'getInvoiceRecordXml',
    path: '/invoices/:id/records/:recordId/xml',
    tag: 'Invoices',
    summary: 'The XML of one record, as sent (or as it will be sent)',
    responses: {
      200: { description: 'The RegistroAlta or RegistroAnulacion.', media: { 'application/xml': { schema: { type: 'string' } } } },
    },
    problems: ['invoice_not_found', 'record_not_found'],
  },
  {
    method: 'get',
    operationId: 'listInvoiceSubmissions',
    path: '/invoices/:id/submissions',
    tag: 'Invoices',
    summary: 'The SOAP exchanges that carried the invoice’s records',
    responses: { 200: { description: 'Newest first.', json: envelope(Joi.array().items(submission)) } },
    problems: ['invoice_not_found'],
  },
];
