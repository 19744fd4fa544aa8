import { and, eq, gt, inArray, lte, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { idempotencyKeys } from '../schema';
import type { SealedAnswer } from './chain-append-write';

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
    const k = idempotencyKeys;
    for (let attempt = 0; attempt < 3; attempt++) {
      const [won] = await db
        .insert(k)
        .values({
          accountId: r.accountId,
          key: r.key,
          fingerprint: r.fingerprint,
          state: 'running',
          owner: r.owner,
          lockedUntil: sql`now() + make_interval(secs => ${r.lockSeconds})`,
          expiresAt: sql`now() + make_interval(secs => ${r.ttlSeconds})`,
        })
        .onConflictDoUpdate({
          target: [k.accountId, k.key],
          set: {
            fingerprint: sql`EXCLUDED.fingerprint`,
            state: 'running',
            owner: sql`EXCLUDED.owner`,
            lockedUntil: sql`EXCLUDED.locked_until`,
            expiresAt: sql`EXCLUDED.expires_at`,
            createdAt: sql`now()`,
            responseStatus: null,
            responseHeaders: null,
            responseBody: null,
          },
          setWhere: or(
            lte(k.expiresAt, sql`now()`),
            and(eq(k.state, 'running'), lte(k.lockedUntil, sql`now()`), eq(k.fingerprint, sql`EXCLUDED.fingerprint`)),
          ),
        })
        .returning({ owner: k.owner });
      if (won?.owner === r.owner) return { kind: 'claimed' };
      const [row] = await db
        .select({
          fingerprint: k.fingerprint,
          state: k.state,
          responseStatus: k.responseStatus,
          responseHeaders: k.responseHeaders,
          responseBody: k.responseBody,
          retryAfter: sql<number>`GREATEST(1, CEIL(EXTRACT(EPOCH FROM (${k.lockedUntil} - now()))))::int`,
        })
        .from(k)
        .where(and(eq(k.accountId, r.accountId), eq(k.key, r.key)));
      // Purged between the two statements: claim again.
      if (!row) continue;
      if (row.fingerprint !== r.fingerprint) return { kind: 'mismatch' };
      if (row.state === 'completed' && row.responseStatus !== null) {
        return {
          kind: 'replay',
          response: { status: row.responseStatus, headers: row.responseHeaders ?? {}, body: row.responseBody ?? '' },
        };
      }
      return { kind: 'in_progress', retryAfterSeconds: row.retryAfter };
    }
    return { kind: 'in_progress', retryAfterSeconds: 1 };
  },

  /**
   * Stores the answer a write seals for its request, inside the write's own transaction: it commits with the write or
   * not at all. A no-op when the claim was lost (taken over after its lock expired).
   */
  async keep(db: DbOrTx, a: SealedAnswer): Promise<boolean> {
    return idempotencyStore.complete(db, a, a);
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

  /** Lets the key go (an answer not worth replaying, e.g. a 5xx): the client may retry with it. True if it was still held. */
  async release(db: DbOrTx, o: IdempotencyOwner): Promise<boolean> {
    const rows = await db.delete(idempotencyKeys).where(ownedRunning(o)).returning({ key: idempotencyKeys.key });
    return rows.length > 0;
  },

  /** The answers kept for `keys` (a batch's items) under the request `fingerprint`, while they are kept. */
  async keptAnswers(db: DbOrTx, accountId: string, keys: string[], fingerprint: string): Promise<Map<string, StoredResponse>> {
    if (keys.length === 0) return new Map();
    const k = idempotencyKeys;
    const rows = await db
      .select({ key: k.key, status: k.responseStatus, headers: k.responseHeaders, body: k.responseBody })
      .from(k)
      .where(
        and(
          eq(k.accountId, accountId),
          inArray(k.key, keys),
          eq(k.fingerprint, fingerprint),
          eq(k.state, 'completed'),
          gt(k.expiresAt, sql`now()`),
        ),
      );
    return new Map(
      rows.flatMap((r) => (r.status === null ? [] : [[r.key, { status: r.status, headers: r.headers ?? {}, body: r.body ?? '' }]])),
    );
  },

  async purgeExpired(db: DbOrTx, limit = 10_000): Promise<number> {
    const result = await db.execute(sql`
      DELETE FROM idempotency_keys WHERE ctid IN (SELECT ctid FROM idempotency_keys WHERE expires_at <= now() LIMIT ${limit})`);
    return result.rowCount ?? 0;
  },
};
