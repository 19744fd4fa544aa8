import type { Pool, PoolClient } from 'pg';
import { decryptSecret, encryptSecret, envelopeKeyId, masterKeyId } from './encrypt-secret';

export interface RotationResult {
  /** Taxpayers whose secrets were re-sealed under the new key. */
  rotated: number;
  /** Taxpayers already under the new key (a rotation run again, or resumed). */
  unchanged: number;
  /** Webhook signing secrets and kept idempotent answers re-sealed under the new key. */
  webhookSecrets: number;
  idempotentAnswers: number;
}

/** Re-seals one column's envelopes (bytea, or base64 text) that are not under `next` yet. */
async function reseal(
  client: PoolClient,
  table: string,
  keyColumns: string[],
  column: string,
  base64: boolean,
  openWith: Buffer[],
  next: Buffer,
): Promise<number> {
  const nextId = masterKeyId(next);
  const keys = keyColumns.join(', ');
  const { rows } = await client.query<Record<string, unknown>>(
    `SELECT ${keys}, ${column} AS sealed FROM ${table} WHERE ${column} IS NOT NULL FOR UPDATE`,
  );
  let count = 0;
  for (const row of rows) {
    const sealed = base64 ? Buffer.from(String(row.sealed), 'base64') : (row.sealed as Buffer);
    if (envelopeKeyId(sealed) === nextId) continue;
    const resealed = encryptSecret(next, decryptSecret(openWith, sealed));
    const where = keyColumns.map((k, i) => `${k} = $${i + 2}`).join(' AND ');
    await client.query(`UPDATE ${table} SET ${column} = $1 WHERE ${where}`, [
      base64 ? resealed.toString('base64') : resealed,
      ...keyColumns.map((k) => row[k]),
    ]);
    count += 1;
  }
  return count;
}

/**
 * Re-seals every stored secret (each taxpayer's PKCS#12 and its password, webhook signing secrets, kept idempotent
 * answers) under `next`, in one transaction: either
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
    const result: RotationResult = { rotated: 0, unchanged: 0, webhookSecrets: 0, idempotentAnswers: 0 };
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
    result.webhookSecrets = await reseal(client, 'webhook_endpoints', ['id'], 'secret', false, openWith, next);
    result.idempotentAnswers = await reseal(client, 'idempotency_keys', ['account_id', 'key'], 'response_body', true, openWith, next);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
