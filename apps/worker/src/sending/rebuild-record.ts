import type { ChainRecord } from '@vf/core';
import { rebuildChainRecord } from '@vf/db/src/records/rebuild-chain-record';
import type { BatchInvoice } from '@vf/db/src/stores/submission-batch-store';

/** The record a waiting row stands for, rebuilt and proven against its stored huella (see rebuildChainRecord). */
export function rebuildRecord(row: BatchInvoice): ChainRecord {
  return rebuildChainRecord(row);
}
