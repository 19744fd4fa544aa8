import type { RegistrationRecord } from '@vf/core';
import { rebuildChainRecord } from '@vf/db/src/records/rebuild-chain-record';
import type { BatchInvoice } from '@vf/db/src/stores/submission-batch-store';

/** The record a waiting row stands for, rebuilt and proven against its stored huella (see rebuildChainRecord). */
export function rebuildRecord(row: BatchInvoice): RegistrationRecord {
  return rebuildChainRecord(row);
}
