import { createHash, randomUUID } from 'node:crypto';
import { decryptSecret, encryptSecret } from '@vf/certificates/encrypt-secret';
import type { Db } from '@vf/db';
import { idempotencyStore, type SealedAnswer, type StoredResponse } from '@vf/db';

/** Keys are kept a day, as clients are told. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;
/** Longer than any request runs: a claim older than this belongs to a process that died. */
export const IDEMPOTENCY_LOCK_SECONDS = 60;

/** The claim one request holds on its key: it alone stores the answer. */
export interface IdempotencyHandle {
  accountId: string;
  key: string;
  owner: string;
  /** The answer ready to be stored by the write it answers, in that write's transaction. */
  seal(response: StoredResponse): SealedAnswer;
  /** Stores an answer no write carries (a refusal, a route that writes nothing), before it goes out. */
  keep(response: StoredResponse): Promise<void>;
  /** The answer of a batch's item `index`, ready to be stored by the append of that item (a row of its own). */
  sealItem(index: number, response: StoredResponse): SealedAnswer;
  /** The answers a run of this same request already kept for its items 0..count-1, by index. */
  keptItems(count: number): Promise<Map<number, StoredResponse>>;
}

/**
 * A batch item's own key: derived from the batch's, with a character outside printable ASCII, so that no client's
 * key (printable ASCII only) can ever name it.
 */
function itemKey(key: string, index: number): string {
  return `${createHash('sha256').update(key).digest('hex')}\u00b7${index}`;
}

export type IdempotencyService = ReturnType<typeof createIdempotencyService>;

export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([method, path, body ?? null]))
    .digest('hex');
}

export function createIdempotencyService(deps: { db: Db; masterKey: Buffer }) {
  const { db, masterKey } = deps;
  // Answers can hold secrets (a new webhook's signing secret) and invoice data: kept encrypted like certificates.
  const seal = (r: StoredResponse): StoredResponse => ({
    ...r,
    body: encryptSecret(masterKey, Buffer.from(r.body, 'utf8')).toString('base64'),
  });
  const open = (r: StoredResponse): StoredResponse => ({
    ...r,
    body: decryptSecret(masterKey, Buffer.from(r.body, 'base64')).toString('utf8'),
  });
  return {
    async claim(accountId: string, key: string, fingerprint: string) {
      const owner = randomUUID();
      const claimed = await idempotencyStore.claim(db, {
        accountId,
        key,
        fingerprint,
        owner,
        lockSeconds: IDEMPOTENCY_LOCK_SECONDS,
        ttlSeconds: IDEMPOTENCY_TTL_SECONDS,
      });
      const result = claimed.kind === 'replay' ? { ...claimed, response: open(claimed.response) } : claimed;
      const sealed = (response: StoredResponse): SealedAnswer => ({ accountId, key, owner, ...seal(response) });
      const handle: IdempotencyHandle = {
        accountId,
        key,
        owner,
        seal: sealed,
        keep: async (response) => {
          await idempotencyStore.keep(db, sealed(response));
        },
        sealItem: (index, response) => ({ accountId, key: itemKey(key, index), parentKey: key, owner, ...seal(response) }),
        async keptItems(count) {
          const keys = Array.from({ length: count }, (_, index) => itemKey(key, index));
          const kept = await idempotencyStore.keptAnswers(db, accountId, keys, fingerprint);
          const byIndex = new Map<number, StoredResponse>();
          keys.forEach((k, index) => {
            const answer = kept.get(k);
            if (answer) byIndex.set(index, open(answer));
          });
          return byIndex;
        },
      };
      return { result, handle };
    },

    /** Lets the key go if no answer was kept; true if it was still held. */
    release(handle: IdempotencyHandle): Promise<boolean> {
      return idempotencyStore.release(db, handle);
    },
  };
}
