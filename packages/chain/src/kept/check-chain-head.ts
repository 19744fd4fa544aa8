import { keptRecordStore, type DbOrTx, type NewAlarm } from '@vf/db';
import { isSignatureOf } from '@vf/signing';
import { buildRecordXml } from '@vf/xml';
import { rebuildChainRecord } from '../records/chain-record-row';

/** How far ahead of the clock a record's time may be (Orden HAC/1177/2024 art. 7.i: one minute). */
export const CLOCK_TOLERANCE_MS = 60_000;

export type HeadAnomaly = Pick<NewAlarm, 'anomaly' | 'recordId' | 'detail'>;

const describe = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * The check before each NO VERI*FACTU record (art. 7.i, always required): the chain's last record still hashes to its
 * huella, its signature is the one made for it and valid (a kept record must have one; a VERI*FACTU record signed
 * when sent is checked too), and its time is not more than a minute ahead of `now`. The anomaly found, if any.
 */
export async function checkChainHead(db: DbOrTx, lastRecordId: string | null, now: Date): Promise<HeadAnomaly | undefined> {
  if (lastRecordId === null) return undefined;
  const head = await keptRecordStore.head(db, lastRecordId);
  if (!head) return { anomaly: 'chain', recordId: lastRecordId, detail: 'the chain names a last record that is not stored' };
  let xml: string;
  try {
    xml = buildRecordXml(rebuildChainRecord(head.record));
  } catch (err) {
    return { anomaly: 'hash', recordId: lastRecordId, detail: describe(err) };
  }
  if (head.signedXml === null) {
    if (head.status === 'kept') return { anomaly: 'signature', recordId: lastRecordId, detail: 'the kept record has no signature' };
  } else {
    if (!isSignatureOf(head.signedXml, xml)) {
      return { anomaly: 'signature', recordId: lastRecordId, detail: 'the signed record is not the record its row holds' };
    }
    // Loaded with the first check: a worker, which only rebuilds records, never holds the verifier's XML parser.
    const { verifyRecordSignature } = await import('@vf/signing/verify-record-signature');
    const verdict = verifyRecordSignature(head.signedXml);
    if (verdict.status !== 'valid') {
      const problems = verdict.status === 'invalid' ? verdict.problems.join('; ') : 'no signature';
      return { anomaly: 'signature', recordId: lastRecordId, detail: `the signature does not verify: ${problems}` };
    }
  }
  if (head.generatedAt.getTime() > now.getTime() + CLOCK_TOLERANCE_MS) {
    return {
      anomaly: 'time',
      recordId: lastRecordId,
      detail: `the record was generated at ${head.generatedAt.toISOString()}, more than a minute after ${now.toISOString()}`,
    };
  }
  return undefined;
}
