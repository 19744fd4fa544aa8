import {
  appendChainRecords,
  keptRecordStore,
  signedRecordStore,
  type AppendContext,
  type AppendWrite,
  type DbOrTx,
  type NewSignedRecord,
  type Queryable,
} from '@vf/db';
import { toAeatDate, type AnomalyType } from '@vf/core';
import { appendEvent } from '../events/append-event';
import { ensureStarted } from '../events/ensure-started';
import { checkChainHead, type HeadAnomaly } from './check-chain-head';
import { SignerUnavailableError, type RecordSigner } from './record-signer';
import { signKeptWrite } from './sign-kept-write';

export type KeptAppend =
  | { kind: 'appended'; backlog: number }
  | { kind: 'moved' }
  /** No certificate can sign now: nothing written (a NO VERI*FACTU record is never stored unsigned). */
  | { kind: 'unsigned'; reason: string };

/**
 * A NO VERI*FACTU append, in the caller's transaction with the chain row locked: the chain's last record checked
 * first (an anomaly raises the chain's alarm, which stays until cleared), then each record signed, then the records
 * written with their signed bytes and marked `kept`, all in that one transaction: a record is never stored unsigned.
 * `signed` runs between signing and writing (the answers that carry the signed records are sealed there).
 */
export async function appendKept(
  q: { client: Queryable; tx: DbOrTx },
  ctx: AppendContext,
  write: AppendWrite,
  opts: { signer: RecordSigner; now: Date; signed?: (records: NewSignedRecord[]) => void },
): Promise<KeptAppend> {
  let signed: NewSignedRecord[];
  try {
    const deps = { signer: opts.signer, now: opts.now };
    await ensureStarted(q.tx, ctx.chain.id, write.systems, deps);
    const anomaly = await checkChainHead(q.tx, ctx.chain.lastInvoiceId, opts.now);
    if (anomaly) await raiseAlarm(q.tx, ctx, write.systems, anomaly, deps);
    signed = await signKeptWrite(write, ctx.previous, await opts.signer.identityFor(ctx.taxpayer.id, q.tx), opts.now);
  } catch (err) {
    if (err instanceof SignerUnavailableError) return { kind: 'unsigned', reason: err.message };
    throw err;
  }
  opts.signed?.(signed);
  const [written] = await appendChainRecords(q.client, [write]);
  if (!written.appended) return { kind: 'moved' };
  await signedRecordStore.keep(q.tx, signed);
  await keptRecordStore.markKept(
    q.tx,
    write.records.map((r) => r.id),
  );
  return { kind: 'appended', backlog: written.backlog };
}

// List L1E of the annex: integridad-huella, integridad-firma, a previous record missing, a time ahead of the clock.
const ANOMALY_TYPES: Record<HeadAnomaly['anomaly'], AnomalyType> = { hash: '01', signature: '02', chain: '04', time: '13' };

/** An anomaly of the chain's last record: the chain's alarm raised, and an event 04 on each system appending. */
async function raiseAlarm(
  tx: DbOrTx,
  ctx: AppendContext,
  systems: string[],
  anomaly: HeadAnomaly,
  deps: { signer: RecordSigner; now: Date },
) {
  await keptRecordStore.raiseAlarm(tx, { chainId: ctx.chain.id, subject: 'records', ...anomaly });
  const head = anomaly.recordId === ctx.previous?.id ? ctx.previous : undefined;
  for (const systemId of systems) {
    await appendEvent(
      tx,
      {
        chainId: ctx.chain.id,
        systemId,
        type: '04',
        data: {
          kind: 'records_anomaly',
          anomaly: ANOMALY_TYPES[anomaly.anomaly],
          detail: anomaly.detail,
          ...(head
            ? { record: { issuerNif: head.issuerNif, invoiceNumber: head.invoiceNumber, invoiceDate: toAeatDate(head.invoiceDate) } }
            : {}),
        },
      },
      deps,
    );
  }
}
