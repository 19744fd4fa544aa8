import Joi from 'joi';
import { Router } from 'express';
import type { AppendedEvent } from '@vf/chain';
import type { PeriodExportBody } from '@vf/contract';
import { currentAccount } from '../auth/require-api-key';
import { methodNotAllowed } from '../http/method-not-allowed';
import { parseWith } from '../http/parse-with';
import { ApiError } from '../errors/api-error';
import { sealedProblemFor } from '../idempotency/sealed-answer';
import type { RouteDoc } from '../openapi/route-doc';
import type { PeriodExportService } from './period-export-service';

export const exportBodySchema = Joi.object<PeriodExportBody, true>({
  subject: Joi.string().valid('records', 'events').required(),
  system_id: Joi.string().guid().when('subject', { is: 'events', then: Joi.required(), otherwise: Joi.forbidden() }),
  from: Joi.string().isoDate().required().description('Start of the period (included).'),
  to: Joi.string().isoDate().required().description('End of the period (excluded).'),
});

/**
 * What a retry with the export's Idempotency-Key gets: the ZIP is no JSON to keep, and building it again would be a
 * second export without its event. The problem names the export's event(s); a new key exports the period again.
 */
export const alreadyMade = (events: AppendedEvent[]) =>
  new ApiError(
    'export_already_made',
    'This Idempotency-Key already made its export; its archive went with that answer. Export the period again with a new key for another copy.',
    { extensions: { event_ids: events.map((e) => e.id) } },
  );

/** A period's records or events exported as a faithful copy (a ZIP), writing the export's event. */
export function periodExportRoutes(exports: PeriodExportService): Router {
  const router = Router();
  router
    .route('/taxpayers/:id/exports')
    .post(async (req, res) => {
      const body = parseWith(exportBodySchema, req.body);
      const { fileName, zip } = await exports.export(currentAccount(res).id, req.params.id, body, sealedProblemFor(res, alreadyMade));
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
    problems: [
      'validation_failed',
      'taxpayer_not_found',
      'export_period_empty',
      'export_too_large',
      'signing_certificate_unusable',
      'export_already_made',
    ],
  },
];
