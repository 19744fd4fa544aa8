import { Router, type Request, type Response } from 'express';
import type { RenderPage } from '../http/page-renderer';
import { signedInSession } from '../session/session-cookie';
import { chainPage } from './chain-page';
import type { ChainVerification } from '@vf/contract';
import type { ApiServices } from '../dashboard-api';

/** A chain position typed in the form: a positive whole number, or nothing (an end of the chain). */
function position(value: unknown): string | undefined {
  return typeof value === 'string' && /^\s*[1-9]\d{0,8}\s*$/.test(value) ? value.trim() : undefined;
}

export function chainPageRoutes(deps: {
  chain: ApiServices['chain'];
  verification: ApiServices['chainVerification'];
  render: RenderPage;
}): Router {
  const router = Router();
  const account = (res: Response) => signedInSession(res).accountId;

  async function show(req: Request, res: Response, result?: ChainVerification, range?: { from?: string; to?: string }) {
    const { taxpayer, links } = await deps.verification.recentLinks(account(res), String(req.params.id));
    // The state comes from the API's chain service, exactly as GET /api/v1/chain/{nif} reports it.
    const state = await deps.chain.state(account(res), taxpayer.nif);
    deps.render(
      req,
      res,
      chainPage({
        taxpayer,
        links,
        result,
        range,
        state: { nif: state.nif, lastHash: state.lastHash, totalRecords: state.totalRecords, lastRecordAt: state.lastRecordAt },
      }),
    );
  }

  router.get('/app/taxpayers/:id/chain', (req, res) => show(req, res));

  // POST: walking a long chain is real work, so a cross-site page must not be able to trigger it.
  router.post('/app/taxpayers/:id/chain/verify', async (req, res) => {
    const typed = { from: position(req.body?.from), to: position(req.body?.to) };
    const range = {
      ...(typed.from ? { from: Number(typed.from) } : {}),
      ...(typed.to && Number(typed.to) >= Number(typed.from ?? 1) ? { to: Number(typed.to) } : {}),
    };
    const { result } = await deps.verification.verify(account(res), req.params.id, range);
    await show(req, res, result, typed);
  });

  return router;
}
