import type { Db, DbOrTx } from '@vf/db';
import { taxpayerStore, type TaxpayerView } from '@vf/db';
import { dashboardInvoiceStore } from '@vf/db';
import { ApiError } from '../../errors/api-error';
import { isUuid } from '../../http/is-uuid';
import { verifyChain, type ChainRecord, type ChainVerification } from './verify-chain';

const PAGE = 500;
const RECENT_LINKS = 20;

export type ChainVerificationService = ReturnType<typeof createChainVerificationService>;

/** The records of the taxpayer's current chain (its present environment). */
async function* recordsOf(db: DbOrTx, chainId: string | null): AsyncGenerator<ChainRecord> {
  if (!chainId) return;
  for (let after = 0; ;) {
    const page = await dashboardInvoiceStore.chainPage(db, chainId, after, PAGE);
    yield* page;
    if (page.length < PAGE) return;
    after = page[page.length - 1].chainSeq;
  }
}

export function createChainVerificationService(deps: { db: Db }) {
  async function ownTaxpayer(db: DbOrTx, accountId: string, taxpayerId: string): Promise<TaxpayerView> {
    const taxpayer = isUuid(taxpayerId) ? await taxpayerStore.find(db, accountId, taxpayerId) : undefined;
    if (!taxpayer) throw new ApiError('taxpayer_not_found', 'No taxpayer with this id in your account.');
    return taxpayer;
  }

  return {
    /** The latest links of the chain, newest first, for the chain page. */
    async recentLinks(accountId: string, taxpayerId: string): Promise<{ taxpayer: TaxpayerView; links: ChainRecord[] }> {
      const taxpayer = await ownTaxpayer(deps.db, accountId, taxpayerId);
      const links = taxpayer.chainId
        ? await dashboardInvoiceStore.chainPage(deps.db, taxpayer.chainId, Math.max(0, taxpayer.chainLength - RECENT_LINKS), RECENT_LINKS)
        : [];
      return { taxpayer, links: links.reverse() };
    },

    /**
     * Recomputes every hash and link from the stored values. Head and records are read in one repeatable-read
     * snapshot, so records appended meanwhile neither appear half-way nor count as a broken head.
     */
    verify(accountId: string, taxpayerId: string): Promise<{ taxpayer: TaxpayerView; result: ChainVerification }> {
      return deps.db.transaction(
        async (tx) => {
          const taxpayer = await ownTaxpayer(tx, accountId, taxpayerId);
          const result = await verifyChain(recordsOf(tx, taxpayer.chainId), {
            chainLength: taxpayer.chainLength,
            lastHash: taxpayer.lastHash,
          });
          return { taxpayer, result };
        },
        { isolationLevel: 'repeatable read', accessMode: 'read only' },
      );
    },
  };
}
