import { eventLogStore, idempotencyStore, summaryStore, type Db, type SealedAnswer, type StoredEvent } from '@vf/db';
import { SignerUnavailableError, type RecordSigner } from '../kept/record-signer';
import { appendEvent } from './append-event';

/** OtrosDatosEvento holds up to 100 characters (EventosSIF.xsd). */
export const EVENT_TEXT_MAX = 100;

/**
 * An event of type 90 (other) the taxpayer records on one system's chain of events, with its description, in one
 * transaction with the answer an Idempotency-Key keeps. Undefined when the system cannot keep the taxpayer's records
 * (it only works as VERI*FACTU, or belongs to another taxpayer): nothing is written.
 */
export async function recordOtherEvent(
  db: Db,
  target: { chainId: string; systemId: string; description: string },
  deps: { signer: RecordSigner; now: Date; answer?: (event: StoredEvent) => SealedAnswer },
): Promise<StoredEvent | undefined> {
  return db.transaction(async (tx) => {
    if (!(await eventLogStore.systemsFor(tx, target.chainId)).includes(target.systemId)) return undefined;
    const appended = await appendEvent(
      tx,
      { chainId: target.chainId, systemId: target.systemId, type: '90', other: target.description },
      deps,
    );
    const event = appended && (await eventLogStore.find(tx, target.chainId, appended.id));
    if (!event) throw new Error(`the event ${appended?.id} just written cannot be read back`);
    if (deps.answer) await idempotencyStore.keep(tx, deps.answer(event));
    return event;
  });
}

/**
 * A backup restored, declared by an operator (Orden HAC/1177/2024 art. 9.1: event 07, when the system manages its
 * restores): written on every chain of events operating as NO VERI*FACTU, or only those of `taxpayerIds`, each in a
 * transaction of its own. A taxpayer whose certificate cannot sign is reported, not written.
 */
export async function declareBackupRestored(
  db: Db,
  opts: { taxpayerIds?: string[]; note?: string },
  deps: { signer: RecordSigner; now: Date },
): Promise<{ written: number; unsigned: string[] }> {
  const targets = opts.taxpayerIds ? await summaryStore.candidatesOf(db, opts.taxpayerIds) : await summaryStore.candidates(db);
  let written = 0;
  const unsigned: string[] = [];
  for (const target of targets) {
    try {
      await db.transaction((tx) => appendEvent(tx, { ...target, type: '07', ...(opts.note ? { other: opts.note } : {}) }, deps));
      written += 1;
    } catch (err) {
      if (!(err instanceof SignerUnavailableError)) throw err;
      unsigned.push(target.chainId);
    }
  }
  return { written, unsigned };
}
