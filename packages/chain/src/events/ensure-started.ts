import { eventLogStore, type DbOrTx } from '@vf/db';
import type { RecordSigner } from '../kept/record-signer';
import { appendEvent } from './append-event';

/**
 * Before a system keeps a NO VERI*FACTU record, its chain of events says it operates as NO VERI*FACTU (event 01):
 * written now when the chain has no start since its last end, e.g. a system first used after the mode started, or
 * the first record after a declared end of VERI*FACTU took effect on 1 January.
 */
export async function ensureStarted(tx: DbOrTx, chainId: string, systemIds: string[], deps: { signer: RecordSigner; now: Date }) {
  for (const systemId of systemIds) {
    const head = await eventLogStore.lockHead(tx, chainId, systemId);
    if (!head) continue;
    if ((await eventLogStore.lastMarker(tx, head.eventChainId)) === '01') continue;
    await appendEvent(tx, { chainId, systemId, type: '01' }, deps);
  }
}
