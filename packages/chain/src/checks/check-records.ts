import { keptRecordStore, type DbOrTx, type WalkedRecord } from '@vf/db';
import { isSignatureOf } from '@vf/signing';
import { buildRecordXml } from '@vf/xml';
import { CLOCK_TOLERANCE_MS } from '../kept/check-chain-head';
import { rebuildChainRecord } from '../records/chain-record-row';
import type { CheckedLink, FoundAnomaly } from '@vf/contract';
import { ANOMALY_OF, type WalkResult } from './chain-link';

const describe = (err: unknown) => (err instanceof Error ? err.message : String(err));

async function signatureProblem(r: WalkedRecord, xml: string | undefined): Promise<string | undefined> {
  if (r.signedXml === null) return r.status === 'kept' ? 'the kept record has no signature' : undefined;
  if (xml !== undefined && !isSignatureOf(r.signedXml, xml)) return 'the signed record is not the record its row holds';
  const { verifyRecordSignature } = await import('@vf/signing/verify-record-signature');
  const verdict = verifyRecordSignature(r.signedXml);
  return verdict.status === 'valid'
    ? undefined
    : `the signature does not verify: ${verdict.status === 'invalid' ? verdict.problems.join('; ') : 'none'}`;
}

/**
 * Walks a chain's records from `fromSeq` to `toSeq` (arts. 6.b, 6.d, 6.e and 7.h of Orden HAC/1177/2024): each one's
 * huella (rebuilt from its row), its signature, its link to the record before it and the order of their times.
 */
export async function checkRecords(db: DbOrTx, chainId: string, range: { fromSeq: number; toSeq: number }, now: Date): Promise<WalkResult> {
  const before = range.fromSeq > 1 ? await keptRecordStore.range(db, chainId, range.fromSeq - 1, range.fromSeq - 1) : [];
  let previous: WalkedRecord | undefined = before[0];
  const links: CheckedLink[] = [];
  const anomalies: FoundAnomaly[] = [];
  for (const r of await keptRecordStore.range(db, chainId, range.fromSeq, range.toSeq)) {
    const found = (kind: FoundAnomaly['kind'], type: FoundAnomaly['type'], detail: string) =>
      anomalies.push({ seq: r.chainSeq, id: r.id, kind, type, detail });
    let xml: string | undefined;
    try {
      xml = buildRecordXml(rebuildChainRecord(r.record));
    } catch (err) {
      found('hash', ANOMALY_OF.hash, describe(err));
    }
    const signature = await signatureProblem(r, xml);
    if (signature) found('signature', ANOMALY_OF.signature, signature);
    const linkOk = previous ? r.previousHash === previous.hash && r.previousInvoiceId === previous.id : r.previousHash === null;
    if (!linkOk) found('link', ANOMALY_OF.link, `its previous huella is not the huella of record ${r.chainSeq - 1}`);
    const ahead = r.generatedAt.getTime() > now.getTime() + CLOCK_TOLERANCE_MS;
    const backwards = previous !== undefined && r.generatedAt.getTime() < previous.generatedAt.getTime();
    if (ahead) found('date', ANOMALY_OF.ahead, `generated at ${r.generatedAt.toISOString()}, more than a minute ahead of the clock`);
    if (backwards) found('date', ANOMALY_OF.date, 'generated before the record before it');
    links.push({
      seq: r.chainSeq,
      id: r.id,
      generatedAt: r.record.generatedAtLiteral,
      hash: r.hash,
      hashOk: xml !== undefined,
      signatureOk: signature === undefined,
      linkOk,
      dateOk: !ahead && !backwards,
    });
    previous = r;
  }
  return { links, anomalies };
}
