import { Router } from 'express';
import { currentAccount } from '../auth/require-api-key';
import { methodNotAllowed } from '../http/method-not-allowed';
import type { ChainService } from './chain-service';

export function chainRoutes(chain: ChainService): Router {
  const router = Router();
  router
    .route('/chain/:nif')
    .get(async (req, res) => {
      const t = await chain.state(currentAccount(res).id, req.params.nif);
      res.json({
        data: { nif: t.nif, last_hash: t.lastHash, total_records: t.chainLength, last_record_at: t.lastRecordAt ? t.lastRecordAt.toISOString() : null },
      });
    })
    .all(methodNotAllowed(['GET']));
  return router;
}
