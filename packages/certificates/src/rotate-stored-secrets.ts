import type { Pool } from 'pg';
import { decryptSecret, encryptSecret, envelopeKeyId, masterKeyId } from './encrypt-secret';

export interface RotationResult {
  /** Taxpayers whose secrets were re-sealed under the new key. */
  rotated: number;
  /** Taxpayers already under the new key (a rotation run again, or resumed). */
  unchanged: number;
}

/**
 * Re-seals every stored secret (each taxpayer's PKCS#12 and its password) under `next`, in one transaction: either
 * every row moves or none does. `keys` are the keys rows may be sealed under now (current, and any earlier one).
 */
export async function rotateStoredSecrets(pool: Pool, keys: readonly Buffer[], next: Buffer): Promise<RotationResult> {
  const nextId = masterKeyId(next);
  const openWith = [next, ...keys];
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<{ id: string; certificate_p12: Buffer | null; certificate_password: Buffer | null }>(
      `SELECT id, certificate_p12, certificate_password FROM taxpayers
       WHERE certificate_p12 IS NOT NULL OR certificate_password IS NOT NULL ORDER BY id FOR UPDATE`,
    );
    const result: RotationResult = { rotated: 0, unchanged: 0 };
    for (const row of rows) {
      const sealed = [row.certificate_p12, row.certificate_password];
      if (sealed.every((s) => s === null || envelopeKeyId(s) === nextId)) {
        result.unchanged += 1;
        continue;
      }
      const [p12, password] = sealed.map((s) => (s === null ? null : encryptSecret(next, decryptSecret(openWith, s))));
      await client.query('UPDATE taxpayers SET certificate_p12 = $2, certificate_password = $3 WHERE id = $1', [row.id, p12, password]);
      result.rotated += 1;
    }
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
