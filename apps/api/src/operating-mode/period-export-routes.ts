import Joi from 'joi';
import { Router } from 'express';
import { currentAccount } from '../auth/require-api-key';
import { methodNotAllowed } from '../http/method-not-allowed';
import { parseWith } from '../http/parse-with';
import type { RouteDoc } from '../openapi/route-doc';
import type { ExportBody, PeriodExportService } from './period-export-service';

const exportBodySchema = Joi.object<ExportBody, true>({
  subject: Joi.string().valid('records', 'events').required(),
  system_id: Joi.string().guid().when('subject', { is: 'events', then: Joi.required(), otherwise: Joi.forbidden() }),
  from: Joi.string().isoDate().required().description('Start of the period (included).'),
  to: Joi.string().isoDate().required().description('End of the period (excluded).'),
});

/** A period's records or events exported as a faithful copy (a ZIP), writing the export's event. */
export function periodExportRoutes(exports: PeriodExportService): Router {
  const router = Router();
  router
    .route('/taxpayers/:id/exports')
    .post(async (req, res) => {
      const body = parseWith(exportBodySchema, req.body);
      const { fileName, zip } = await exports.export(currentAccount(res).id, req.params.id, body);
      res
        .type('application/zip')
        .attachment(fileName)
        .send(Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength));
    })
    .all(methodNotAllowed(['POST']));
  return router;
}

export const periodExportRouteDocs: RouteDoc[] = [
  {
    method: 'post',
    operationId: 'exportTaxpayerPeriod',
    path: '/taxpayers/:id/exports',
    tag: 'NO VERI*FACTU',
    summary: 'Export a period’s records, or a system’s events, as a faithful copy',
    description:
      'A ZIP of every record (or event) generated in [from, to), each its XML exactly as generated and signed, in chain order, with `indice.csv` (each file’s place, identifiers, huella and SHA-256) and the export’s own signed event (08 for records, 09 for events). Nothing stops being kept.',
    body: exportBodySchema,
    responses: { 200: { description: 'The archive.', media: { 'application/zip': { schema: { type: 'string', format: 'binary' } } } } },
    problems: ['validation_failed', 'taxpayer_not_found', 'export_period_empty', 'export_too_large', 'signing_certificate_unusable'],
  },
];
