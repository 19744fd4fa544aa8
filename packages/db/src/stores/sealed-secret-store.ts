import type { Pool, PoolClient } from 'pg';

/** What a re-sealing run changed: taxpayers (certificate and password together), webhook secrets, kept answers. */
export interface ResealCounts {
  /** Taxpayers whose secrets were re-sealed. */
  rotated: number;
  /** Taxpayers with secrets that needed nothing (already sealed as wanted). */
  unchanged: number;
  webhookSecrets: number;
  idempotentAnswers: number;
}

/** A sealed value re-sealed, or undefined when it is already sealed as wanted. */
export type Reseal = (sealed: Buffer) => Buffer | undefined;

/** Re-seals one column's envelopes (bytea, or base64 text); how many rows changed. */
async function resealColumn(client: PoolClient, table: string, keyColumns: string[], column: string, base64: boolean, reseal: Reseal) {
  const keys = keyColumns.join(', ');
  const { rows } = await client.query<Record<string, unknown>>(
    `SELECT ${keys}, ${column} AS sealed FROM ${table} WHERE ${column} IS NOT NULL FOR UPDATE`,
  );
  let count = 0;
  for (const row of rows) {
    const resealed = reseal(base64 ? Buffer.from(String(row.sealed), 'base64') : (row.sealed as Buffer));
    if (!resealed) continue;
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
 * Every secret the service stores sealed (each taxpayer's PKCS#12 and its password, webhook signing secrets, kept
 * idempotent answers), passed through `reseal` in one transaction: either every row moves or none does.
 */
export async function resealStoredSecrets(pool: Pool, reseal: Reseal): Promise<ResealCounts> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<{ id: string; certificate_p12: Buffer | null; certificate_password: Buffer | null }>(
      `SELECT id, certificate_p12, certificate_password FROM taxpayers
       WHERE certificate_p12 IS NOT NULL OR certificate_password IS NOT NULL ORDER BY id FOR UPDATE`,
    );
    const result: ResealCounts = { rotated: 0, unchanged: 0, webhookSecrets: 0, idempotentAnswers: 0 };
    for (const row of rows) {
      const sealed = [row.certificate_p12, row.certificate_password];
      const resealed = sealed.map((s) => (s === null ? undefined : reseal(s)));
      if (resealed.every((r) => r === undefined)) {
        result.unchanged += 1;
        continue;
      }
      const [p12, password] = sealed.map((s, i) => resealed[i] ?? s);
      await client.query('UPDATE taxpayers SET certificate_p12 = $2, certificate_password = $3 WHERE id = $1', [row.id, p12, password]);
      result.rotated += 1;
    }
    result.webhookSecrets = await resealColumn(client, 'webhook_endpoints', ['id'], 'secret', false, reseal);
    result.idempotentAnswers = await resealColumn(client, 'idempotency_keys', ['account_id', 'key'], 'response_body', true, reseal);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
