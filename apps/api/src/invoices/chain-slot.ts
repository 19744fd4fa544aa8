import { toAeatDate } from '@vf/core';
import type { DbOrTx } from '@vf/db';
import { chainStore, invoiceStore, taxpayerStore, type ChainHead, type LockedChain, type LockedTaxpayer } from '@vf/db';
import { ApiError } from '../errors/api-error';
import { generationTime, type GenerationTime } from './generation-time';

/** The place of the next record in the taxpayer's current chain, held under the chain's row lock. */
export interface ChainSlot {
  taxpayer: LockedTaxpayer;
  chain: LockedChain;
  previous: ChainHead | undefined;
  generated: GenerationTime;
  position: number;
}

export const taxpayerNotFound = () => new ApiError('taxpayer_not_found', 'No taxpayer with this taxpayer_id in your account.');

/**
 * Locks the taxpayer (its NIF and environment cannot change meanwhile) and the chain of its current environment,
 * then reads the chain head. Everything appended in this transaction is serialised with every other append.
 */
export async function openChainSlot(tx: DbOrTx, accountId: string, taxpayerId: string, now: Date): Promise<ChainSlot> {
  const taxpayer = await taxpayerStore.lockForAppend(tx, accountId, taxpayerId);
  if (!taxpayer) throw taxpayerNotFound();
  const chain = await chainStore.lockForAppend(tx, taxpayer.id, taxpayer.isProduction);
  // Every taxpayer claims its chain when it is created or switches environment.
  if (!chain) throw new Error(`taxpayer ${taxpayer.id} has no chain for its current environment`);
  const previous = chain.lastInvoiceId ? await invoiceStore.chainHead(tx, chain.lastInvoiceId) : undefined;
  return { taxpayer, chain, previous, generated: generationTime(now, previous), position: chain.chainLength + 1 };
}

/** Encadenamiento/RegistroAnterior of the slot's record: absent for the first record (PrimerRegistro=S). */
export function previousLink(slot: ChainSlot) {
  const p = slot.previous;
  return p && { issuerNif: p.issuerNif, invoiceNumber: p.invoiceNumber, invoiceDate: toAeatDate(p.invoiceDate), hash: p.hash };
}

export async function closeChainSlot(tx: DbOrTx, slot: ChainSlot, recordId: string): Promise<void> {
  await chainStore.advance(tx, slot.chain.id, { chainLength: slot.position, lastInvoiceId: recordId });
}
