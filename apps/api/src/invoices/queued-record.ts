import type { ChainRecordRow, InvoiceRow } from '@vf/db';

/** A record just appended, as the client is told about it: queued, nothing heard from the authority yet. */
export type QueuedRecord = ChainRecordRow & Pick<InvoiceRow, 'authorityStatus' | 'authorityCode' | 'authorityMessage' | 'authorityCsv'>;

export const queuedRecord = (row: ChainRecordRow): QueuedRecord => ({
  ...row,
  authorityStatus: 'queued',
  authorityCode: null,
  authorityMessage: null,
  authorityCsv: null,
});
