import { normalizeNif } from '@vf/core';
import type { ChainView, Environment } from '@vf/contract';
import type { Db } from '@vf/db';
import { chainStore, taxpayerStore } from '@vf/db';
import { ApiError } from '../errors/api-error';

export type ChainService = ReturnType<typeof createChainService>;

const environmentOf = (isProduction: boolean): Environment => (isProduction ? 'production' : 'sandbox');

export function createChainService(deps: { db: Db }) {
  return {
    /**
     * The head of the chain of the account's taxpayer with this NIF, in `environment` (default: the taxpayer's
     * current one). Other accounts' taxpayers do not exist here. An environment never used reads as an empty chain.
     */
    async state(accountId: string, nif: string, environment?: Environment): Promise<ChainView> {
      const taxpayer = await taxpayerStore.findByNif(deps.db, accountId, normalizeNif(nif));
      if (!taxpayer) throw new ApiError('chain_not_found', 'No taxpayer with this NIF in your account.');
      const isProduction = environment ? environment === 'production' : taxpayer.isProduction;
      const chain = await chainStore.state(deps.db, taxpayer.id, isProduction);
      return {
        nif: taxpayer.nif,
        environment: environmentOf(isProduction),
        currentEnvironment: environmentOf(taxpayer.isProduction),
        lastHash: chain?.lastHash ?? null,
        totalRecords: chain?.chainLength ?? 0,
        lastRecordAt: chain?.lastRecordAt ?? null,
      };
    },
  };
}
