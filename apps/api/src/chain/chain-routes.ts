import { Router } from 'express';
import { currentAccount } from '../auth/require-api-key';
import { methodNotAllowed } from '../http/method-not-allowed';
import { parseWith } from '../http/parse-with';
import type { ChainService } from './chain-service';
import type { ChainVerificationService } from './chain-verification-service';
import { renderChainVerification } from './render-chain-verification';
import { chainVerificationResponse } from '../verification/verification-schemas';
import { chainQuerySchema, chainResponse, chainVerificationQuerySchema } from './chain-schemas';
import type { RouteDoc } from '../openapi/route-doc';

export function chainRoutes(chain: ChainService, verification: ChainVerificationService): Router {
  const router = Router();
  router
    .route('/chain/:nif')
    .get(async (req, res) => {
      const { environment } = parseWith(chainQuerySchema, req.query);
      const c = await chain.state(currentAccount(res).id, req.params.nif, environment);
      res.json({
        data: {
          nif: c.nif,
          environment: c.environment,
          current_environment: c.currentEnvironment,
          last_hash: c.lastHash,
          total_records: c.totalRecords,
          last_record_at: c.lastRecordAt ? c.lastRecordAt.toISOString() : null,
        },
      });
    })
    .all(methodNotAllowed(['GET']));
  router
    .route('/chain/:nif/verification')
    .get(async (req, res) => {
      const { environment, from, to } = parseWith(chainVerificationQuerySchema, req.query);
      const result = await verification.verifyByNif(currentAccount(res).id, req.params.nif, environment, { from, to });
      res.json({ data: renderChainVerification(result) });
    })
    .all(methodNotAllowed(['GET']));
  return router;
}

export const chainRouteDocs: RouteDoc[] = [
  {
    method: 'get',
    operationId: 'getChain',
    path: '/chain/:nif',
    tag: 'Chains',
    summary: 'State of a taxpayer’s hash chain',
    query: chainQuerySchema,
    responses: { 200: { description: 'The chain’s last huella and length.', json: chainResponse } },
    problems: ['validation_failed', 'chain_not_found'],
  },
  {
    method: 'get',
    operationId: 'verifyChain',
    path: '/chain/:nif/verification',
    tag: 'Chains',
    summary: 'Verify a chain, or a range of it: every huella, every link and every signature',
    description:
      'Each huella is recomputed from the stored values, each record checked against the one before it, and each ' +
      'signature verified on the signed record as sent (see GET /invoices/{id}/records/{record_id}/verification). ' +
      'The walk stops at the first broken link; invalid signatures are listed and the walk goes on. Checking the ' +
      'signatures costs about 2 ms of CPU a record: ask for a range (`from`, `to`) on long chains.',
    query: chainVerificationQuerySchema,
    responses: { 200: { description: 'What holds over the range and what does not.', json: chainVerificationResponse } },
    problems: ['validation_failed', 'chain_not_found'],
  },
];
