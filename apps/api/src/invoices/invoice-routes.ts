import { Router } from 'express';
import { classifyOperation } from '@vf/core';
import { currentAccount } from '../auth/require-api-key';
import { ApiError } from '../errors/api-error';
import { methodNotAllowed } from '../http/method-not-allowed';
import { parseWith } from '../http/parse-with';
import type { InvoiceExportService } from './invoice-export-service';
import { invoiceExportSchema, invoiceListSchema } from './invoice-list-schema';
import type { InvoiceCancellationService } from './invoice-cancellation-service';
import type { InvoiceQueryService } from './invoice-query-service';
import type { InvoiceRegistrationService } from './invoice-registration-service';
import { renderInvoiceDetail, renderInvoiceSummary, renderRecord, renderSubmission } from './invoice-view';

export function invoiceRoutes(registration: InvoiceRegistrationService, queries: InvoiceQueryService, cancellation: InvoiceCancellationService, exports: InvoiceExportService): Router {
  const router = Router();

  // Fixed paths before /invoices/:id, which would otherwise claim them.
  router
    .route('/invoices/validate')
    .post(async (req, res) => {
      const warnings = await registration.validate(currentAccount(res).id, req.body);
      res.json({ data: { valid: true, warnings } });
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/invoices/classify')
    .post((req, res) => {
      const result = classifyOperation(req.body);
      if (!result.valid) throw ApiError.validation(result.errors, 'The operation cannot be classified; see errors.');
      res.json({ data: result.data });
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/invoices/export')
    .get(async (req, res) => {
      const { decimal, format: _csv, ...filters } = parseWith(invoiceExportSchema, req.query);
      res
        .type('text/csv; charset=utf-8')
        .attachment(`invoices-${new Date().toISOString().slice(0, 10)}.csv`);
      await exports.exportInvoicesCsv(currentAccount(res).id, filters, { decimal }, res);
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/invoices')
    .get(async (req, res) => {
      const page = await queries.list(currentAccount(res).id, parseWith(invoiceListSchema, req.query));
      res.json({ data: page.items.map(renderInvoiceSummary), next_cursor: page.nextCursor, total: page.total });
    })
    .post(async (req, res) => {
      const r = await registration.register(currentAccount(res), req.body, req.log);
      res
        .status(201)
        .location(`/api/v1/invoices/${r.id}`)
        .json({
          message: 'Invoice registered and queued for submission to the tax authority.',
          data: {
            id: r.id,
            invoice_number: r.invoiceNumber,
            hash: r.hash,
            qr_url: r.qrUrl,
            authority_status: 'queued',
            record_type: 'registration',
            taxpayer_id: r.taxpayerId,
            chain_position: r.chainPosition,
            previous_hash: r.previousHash,
            generated_at: r.generatedAt,
            warnings: r.warnings,
          },
        });
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/invoices/:id')
    .get(async (req, res) => {
      res.json({ data: renderInvoiceDetail(await queries.get(currentAccount(res).id, req.params.id)) });
    })
    .put(async (req, res) => {
      const r = await registration.correct(currentAccount(res), req.params.id, req.body, req.log);
      res
        .status(201)
        .location(`/api/v1/invoices/${r.invoiceId}`)
        .json({ message: 'Correction (subsanación) appended to the chain and queued for submission.', data: renderRecord(r) });
    })
    .all(methodNotAllowed(['GET', 'PUT']));

  router
    .route('/invoices/:id/cancel')
    .post(async (req, res) => {
      const r = await cancellation.cancel(currentAccount(res), req.params.id, req.body, req.log);
      res
        .status(201)
        .location(`/api/v1/invoices/${r.invoiceId}`)
        .json({ message: 'Cancellation (anulación) appended to the chain and queued for submission.', data: renderRecord(r) });
    })
    .all(methodNotAllowed(['POST']));

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

  return router;
}
