import { sendStateStore, signedRecordStore, submissionRecordStore, type DbOrTx, type NewSignedRecord, type OpenedSubmission } from '@vf/db';
import type { PreparedMessage } from '../sending/plan-message';

/** A message whose signatures are stored and submission opened: ready to go. */
export type OpenMessage = Omit<PreparedMessage, 'signed'>;

/** The transaction before a message goes: its new signatures kept, older attempts closed, the submission opened. */
export async function openSubmission(
  tx: DbOrTx,
  message: OpenMessage,
  signed: NewSignedRecord[],
  sender: { workerId: string; requestTimeoutMs: number },
): Promise<OpenedSubmission> {
  const { chainId } = message;
  await signedRecordStore.keep(tx, signed);
  const opened = await submissionRecordStore.open(
    tx,
    {
      taxpayerId: message.taxpayerId,
      chainId,
      workerId: sender.workerId,
      endpoint: message.endpoint,
      certificateMode: message.certificate.mode,
      incident: message.incident,
      requestXml: message.storedRequestXml,
      invoiceIds: message.records.map((r) => r.invoiceId),
    },
    'the sending worker stopped before the answer was recorded; its records were sent again',
  );
  await sendStateStore.recordSendStart(tx, chainId, sender.requestTimeoutMs);
  return opened;
}
