import { Router } from 'express';
import { currentAccount } from '../auth/require-api-key';
import { ApiError } from '../errors/api-error';
import { methodNotAllowed } from '../http/method-not-allowed';
import type { InvoiceQrService } from './invoice-qr-service';
import { chooseQrFormat } from './render-qr';
import { sendQrImage } from './send-qr-image';
import type { RouteDoc } from '../openapi/route-doc';

/** GET /invoices/:id/qr (behind requireApiKey): PNG or SVG by ?format= or Accept. */
export function qrRoutes(qr: InvoiceQrService): Router {
  const router = Router();
  router
    .route('/invoices/:id/qr')
    .get(async (req, res) => {
      const choice = chooseQrFormat(req.query.format, (types) => req.accepts(types));
      if ('problem' in choice) {
        if (choice.problem === 'unknown_format') {
          throw ApiError.validation([{ field: 'format', code: 'invalid_value', message: 'format must be png or svg' }]);
        }
        throw new ApiError('not_acceptable', 'This resource is available as image/png or image/svg+xml.');
      }
      sendQrImage(res, await qr.image(currentAccount(res).id, req.params.id, choice.format));
    })
    .all(methodNotAllowed(['GET']));
  return router;
}

export const qrRouteDocs: RouteDoc[] = [
  {
    method: 'get',
    operationId: 'getInvoiceQr',
    path: '/invoices/:id/qr',
    tag: 'Invoices',
    summary: 'The invoice’s QR code as PNG or SVG',
    description: 'Chosen by `?format=png|svg`, else by the Accept header.',
    responses: {
      200: {
        description: 'The QR image.',
        media: {
          'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } },
          'image/svg+xml': { schema: { type: 'string' } },
        },
      },
    },
    problems: ['validation_failed', 'not_acceptable', 'invoice_not_found'],
  },
];
