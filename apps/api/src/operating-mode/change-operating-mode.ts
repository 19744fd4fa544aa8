import {
  appendEventToSystems,
  changeMode,
  SignerUnavailableError,
  type ModeChange,
  type OperatingMode,
  type RecordSigner,
} from '@vf/chain';
import { operatingModeStore, type DbOrTx } from '@vf/db';
import { signingCertificateUnusable } from '../invoices/invoice-registration-service';

/**
 * A change of the taxpayer's mode in its current environment, in the caller's transaction, the chain row locked
 * (no record is appended meanwhile). VERI*FACTU once used (a record generated since it was chosen) is kept until 31
 * December: leaving it is then declared for the next year. Starting NO VERI*FACTU needs a certificate that can sign.
 */
export async function changeOperatingMode(
  tx: DbOrTx,
  taxpayerId: string,
  requested: OperatingMode,
  deps: { signer: RecordSigner; now: Date },
): Promise<ModeChange> {
  const held = await operatingModeStore.lockCurrent(tx, taxpayerId);
  if (!held) return { kind: 'unchanged' };
  // A record's time is kept to the second (FechaHoraHusoGenRegistro): one of the second the mode started counts.
  const verifactuUsed = held.lastRecordAt !== null && held.lastRecordAt.getTime() >= Math.floor(held.since.getTime() / 1000) * 1000;
  const change = changeMode(held, requested, deps.now, verifactuUsed);
  if (change.kind === 'unchanged') return change;
  await operatingModeStore.set(tx, held.chainId, change.next);
  // The start (01) or end (02) of NO VERI*FACTU operation, on each system that can keep the taxpayer's records; a
  // system first used later writes its 01 with its first record. Signed: without a certificate, nothing changes.
  const marker = change.kind === 'started' ? '01' : change.kind === 'ended' ? '02' : undefined;
  try {
    if (change.kind === 'started') await deps.signer.identityFor(taxpayerId, tx);
    if (marker) await appendEventToSystems(tx, held.chainId, { type: marker }, deps);
  } catch (err) {
    if (err instanceof SignerUnavailableError) throw signingCertificateUnusable(err.message);
    throw err;
  }
  return change;
}
