import { Router } from 'express';
import { currentAccount } from '../auth/require-api-key';
import { methodNotAllowed } from '../http/method-not-allowed';
import type { RouteDoc } from '../openapi/route-doc';
import type { RecordVerification, RecordVerificationService } from './record-verification-service';
import { renderSignatureCheck } from './signature-check';
import { recordVerificationResponse } from './verification-schemas';

export function renderRecordVerification(v: RecordVerification) {
  return {
    record_id: v.recordId,
    chain_seq: v.chainSeq,
    valid: v.hash.valid && v.link.valid && v.signature.status !== 'invalid',
    hash: v.hash,
    link: { valid: v.link.valid, problem: v.link.problem ?? null },
    signature: renderSignatureCheck(v.signature),
  };
}

export function recordVerificationRoutes(verification: RecordVerificationService): Router {
  const router = Router();
  router
    .route('/invoices/:id/records/:recordId/verification')
    .get(async (req, res) => {
      res.json({ data: renderRecordVerification(await verification.verify(currentAccount(res).id, req.params.id, req.params.recordId)) });
    })
    .all(methodNotAllowed(['GET']));
  return router;
}

export const recordVerificationRouteDocs: RouteDoc[] = [
  {
    method: 'get',
    operationId: 'verifyInvoiceRecord',
    path: '/invoices/:id/records/:recordId/verification',
    tag: 'Invoices',
    summary: 'Verify one record as stored: its huella, its link to the record before it, and its signature',
    description:
      'The huella is recomputed from the stored values; the signature (XAdES-EPES) is verified on the signed record as ' +
      'sent: its cryptography, its policy and signing certificate, its signing time within the certificate’s validity, ' +
      'that it signs this very record, and that the certificate is the taxpayer’s or the platform’s.',
    responses: { 200: { description: 'What holds and what does not.', json: recordVerificationResponse } },
    problems: ['invoice_not_found', 'record_not_found'],
  },
];
