import { Router } from 'express';
import Joi from 'joi';
import { currentAccount } from '../auth/require-api-key';
import { methodNotAllowed } from '../http/method-not-allowed';
import { parseWith } from '../http/parse-with';
import type { ChainService } from './chain-service';

const chainQuerySchema = Joi.object<{ environment?: 'sandbox' | 'production' }>({ environment: Joi.string().valid('sandbox', 'production') });

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
