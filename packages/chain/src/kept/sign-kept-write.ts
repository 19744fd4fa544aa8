import type { AppendWrite, ChainHead, NewSignedRecord, StoredChainRecord, StoredLine } from '@vf/db';
import { signRecordAsync, type SigningIdentity } from '@vf/signing';
import { buildRecordXml } from '@vf/xml';
import { rebuildChainRecord } from '../records/chain-record-row';

type Link = StoredChainRecord['previous'];

/**
 * Each record of a write signed as it is generated (NO VERI*FACTU: a record exists only once signed): rebuilt from
 * the very row the write stores and proven against its huella (as the workers do before sending), written as a
 * standalone canonical element and signed (XAdES-EPES, decision 0013). In the write's order.
 */
export async function signKeptWrite(
  write: AppendWrite,
  previous: Pick<ChainHead, 'issuerNif' | 'invoiceNumber' | 'invoiceDate' | 'hash'> | undefined,
  identity: SigningIdentity,
  at: Date,
): Promise<NewSignedRecord[]> {
  const lines = new Map<string, StoredLine[]>();
  for (const line of write.lines) {
    const of = lines.get(line.invoiceId);
    if (of) of.push(line);
    else lines.set(line.invoiceId, [line]);
  }
  let link: Link = previous ? { ...previous } : null;
  const signing = write.records.map((row) => {
    const stored: StoredChainRecord = { ...row, previous: link, lines: lines.get(row.id) ?? [] };
    link = { issuerNif: row.issuerNif, invoiceNumber: row.invoiceNumber, invoiceDate: row.invoiceDate, hash: row.hash };
    const xml = buildRecordXml(rebuildChainRecord(stored));
    // The signature named after its record, as a sender names it: its id is then no part kept of it (decision 0064).
    return signRecordAsync(xml, identity, { at, id: `xmldsig-${row.id}` }).then((signed) => ({ invoiceId: row.id, xml: signed }));
  });
  return Promise.all(signing);
}
