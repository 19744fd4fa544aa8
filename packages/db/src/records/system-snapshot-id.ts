import { createHash } from 'node:crypto';
import type { SistemaInformatico } from '@vf/core';

// A record's block is the same object for every record built from one read of its system (chain-record-row.ts,
// frozen): its digest is computed once per object.
const ids = new WeakMap<SistemaInformatico, string>();

/**
 * The id a SistemaInformatico block is kept under in system_snapshots (migration 0031): the first 128 bits of the
 * SHA-256 of its JSON, as a UUID. Equal blocks get one id; a block named differently (its keys in another order) is
 * merely kept twice.
 */
export function systemSnapshotId(snapshot: SistemaInformatico): string {
  const known = ids.get(snapshot);
  if (known !== undefined) return known;
  const hex = createHash('sha256').update(JSON.stringify(snapshot)).digest('hex');
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
  ids.set(snapshot, id);
  return id;
}
