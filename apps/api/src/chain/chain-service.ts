import { normalizeNif } from '@vf/core';
import type { Db } from '@vf/db';
import { taxpayerStore, type TaxpayerView } from '@vf/db/src/stores';
import { ApiError } from '../errors/api-error';

export type ChainService = ReturnType<typeof createChainService>;

export function createChainService(deps: { db: Db }) {
  return {
    /** The chain head of the account's taxpayer with this NIF; other accounts' taxpayers do not exist here. */
    async state(accountId: string, nif: string): Promise<TaxpayerView> {
      const taxpayer = await taxpayerStore.findByNif(deps.db, accountId, normalizeNif(nif));
      if (!taxpayer) throw new ApiError('chain_not_found', 'No taxpayer with this NIF in your account.');
      return taxpayer;
    },
  };
}
