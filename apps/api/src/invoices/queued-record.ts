import type { ChainRecordRow, InvoiceRow } from '@vf/db';

/**
 * A record just appended, as the client is told about it: queued, nothing heard from the authority yet; or, in NO
 * VERI*FACTU, signed and kept.
 */
export type QueuedRecord = ChainRecordRow & Pick<InvoiceRow, 'authorityStatus' | 'authorityCode' | 'authorityMessage' | 'authorityCsv'>;

export const queuedRecord = (row: ChainRecordRow, kept = false): QueuedRecord => ({
  ...row,
  authorityStatus: kept ? 'kept' : 'queued',
  authorityCode: null,
  authorityMessage: null,
  authorityCsv: null,
});
