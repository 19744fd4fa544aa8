import { Router } from 'express';
import Joi from 'joi';
import { currentAccount } from '../auth/require-api-key';
import { methodNotAllowed } from '../http/method-not-allowed';
import { parseWith } from '../http/parse-with';
import type { ChainService } from './chain-service';
import { chainResponse } from '../openapi/response-schemas';
import type { RouteDoc } from '../openapi/route-doc';

const chainQuerySchema = Joi.object<{ environment?: 'sandbox' | 'production' }>({
  environment: Joi.string().valid('sandbox', 'production'),
});

export function chainRoutes(chain: ChainService): Router {
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
  return router;
}

export const chainRouteDocs: RouteDoc[] = [
  {
    method: 'get',
    path: '/chain/:nif',
    tag: 'Chains',
    summary: 'State of a taxpayer’s hash chain',
    query: chainQuerySchema,
    responses: { 200: { description: 'The chain’s last huella and length.', json: chainResponse } },
    problems: ['validation_failed', 'chain_not_found'],
  },
];
