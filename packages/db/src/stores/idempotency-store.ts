import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { idempotencyKeys } from '../schema';

export interface IdempotencyClaimRequest {
  accountId: string;
  key: string;
  fingerprint: string;
  /** Unique per request: only its holder can store the answer or let the key go. */
  owner: string;
  /** How long the claim holds before another request may take it over (the first one is presumed dead). */
  lockSeconds: number;
  ttlSeconds: number;
}

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type IdempotencyClaim =
  | { kind: 'claimed' }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'mismatch' }
  | { kind: 'in_progress'; retryAfterSeconds: number };

export interface IdempotencyOwner {
  accountId: string;
  key: string;
  owner: string;
}

function ownedRunning(o: IdempotencyOwner) {
  return and(
    eq(idempotencyKeys.accountId, o.accountId),
    eq(idempotencyKeys.key, o.key),
    eq(idempotencyKeys.owner, o.owner),
    eq(idempotencyKeys.state, 'running'),
  );
}

export const idempotencyStore = {
  /**
   * One statement decides who runs: a new key, an expired one, or an abandoned claim of the same request is taken
   * by exactly one of any number of concurrent callers (the row lock of ON CONFLICT serialises them).
   */
  async claim(db: DbOrTx, r: IdempotencyClaimRequest): Promise<IdempotencyClaim> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const won = await db.execute<{ owner: string }>(sql`
        INSERT INTO idempotency_keys (account_id, key, fingerprint, state, owner, locked_until, expires_at)
        VALUES (${r.accountId}, ${r.key}, ${r.fingerprint}, 'running', ${r.owner},
                now() + make_interval(secs => ${r.lockSeconds}), now() + make_interval(secs => ${r.ttlSeconds}))
        ON CONFLICT (account_id, key) DO UPDATE SET
          fingerprint = EXCLUDED.fingerprint, state = 'running', owner = EXCLUDED.owner,
          locked_until = EXCLUDED.locked_until, expires_at = EXCLUDED.expires_at, created_at = now(),
          response_status = NULL, response_headers = NULL, response_body = NULL
        WHERE idempotency_keys.expires_at <= now()
           OR (idempotency_keys.state = 'running' AND idempotency_keys.locked_until <= now()
               AND idempotency_keys.fingerprint = EXCLUDED.fingerprint)
        RETURNING owner`);
      if (won.rows[0]?.owner === r.owner) return { kind: 'claimed' };
      const existing = await db.execute<{
        fingerprint: string;
        state: string;
        response_status: number | null;
        response_headers: Record<string, string> | null;
        response_body: string | null;
        retry_after: number;
      }>(sql`
        SELECT fingerprint, state, response_status, response_headers, response_body,
               GREATEST(1, CEIL(EXTRACT(EPOCH FROM (locked_until - now()))))::int AS retry_after
        FROM idempotency_keys WHERE account_id = ${r.accountId} AND key = ${r.key}`);
      const row = existing.rows[0];
      // Purged between the two statements: claim again.
      if (!row) continue;
      if (row.fingerprint !== r.fingerprint) return { kind: 'mismatch' };
      if (row.state === 'completed' && row.response_status !== null) {
        return {
          kind: 'replay',
          response: { status: row.response_status, headers: row.response_headers ?? {}, body: row.response_body ?? '' },
        };
      }
      return { kind: 'in_progress', retryAfterSeconds: row.retry_after };
    }
    return { kind: 'in_progress', retryAfterSeconds: 1 };
  },

  /** Stores the answer; a no-op when it is already stored (inside the handler's own transaction) or the claim was lost. */
  async complete(db: DbOrTx, o: IdempotencyOwner, response: StoredResponse): Promise<boolean> {
    const rows = await db
      .update(idempotencyKeys)
      .set({ state: 'completed', responseStatus: response.status, responseHeaders: response.headers, responseBody: response.body })
      .where(ownedRunning(o))
      .returning({ key: idempotencyKeys.key });
    return rows.length > 0;
  },

  /** Lets the key go (an answer not worth replaying, e.g. a 5xx): the client may retry with it. */
  async release(db: DbOrTx, o: IdempotencyOwner): Promise<void> {
    await db.delete(idempotencyKeys).where(ownedRunning(o));
  },

  async purgeExpired(db: DbOrTx, limit = 10_000): Promise<number> {
    const result = await db.execute(sql`
      DELETE FROM idempotency_keys WHERE ctid IN (SELECT ctid FROM idempotency_keys WHERE expires_at <= now() LIMIT ${limit})`);
    return result.rowCount ?? 0;
  },
};
