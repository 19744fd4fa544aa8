import { Router } from 'express';
import { currentAccount } from '../auth/require-api-key';
import { ApiError } from '../errors/api-error';
import { methodNotAllowed } from '../http/method-not-allowed';
import type { InvoiceQrService } from './invoice-qr-service';
import { chooseQrFormat } from './render-qr';
import { sendQrImage } from './send-qr-image';

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
