import { resealStoredSecrets, type Database, type ResealCounts } from '@vf/db';
import { decryptSecret, encryptSecret, envelopeKeyId, masterKeyId } from './encrypt-secret';

/**
 * rotated: taxpayers whose secrets were re-sealed under the new key; unchanged: taxpayers already under it (a
 * rotation run again, or resumed); webhookSecrets, idempotentAnswers: those re-sealed under the new key.
 */
export type RotationResult = ResealCounts;

/**
 * Re-seals every stored secret (each taxpayer's PKCS#12 and its password, webhook signing secrets, kept idempotent
 * answers) under `next`, in one transaction: either every row moves or none does. `keys` are the keys rows may be
 * sealed under now (current, and any earlier one).
 */
export function rotateStoredSecrets(pool: Database['pool'], keys: readonly Buffer[], next: Buffer): Promise<RotationResult> {
  const nextId = masterKeyId(next);
  const openWith = [next, ...keys];
  return resealStoredSecrets(pool, (sealed) =>
    envelopeKeyId(sealed) === nextId ? undefined : encryptSecret(next, decryptSecret(openWith, sealed)),
  );
}
