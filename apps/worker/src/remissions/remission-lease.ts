import { remissionSendStore, type Db, type RemissionForSending, type Tx } from '@vf/db';
import { LeaseLostError } from '../jobs/send-chain-job';

export type RemissionLeaseAttempt = { lease: RemissionLease } | { finished: true } | { retryAt: Date };

/**
 * A remission's send lease: one sender per remission across the worker fleet, as a chain's (decision 0003). Taken
 * only when flow control allows a message; renewed every third of its time to live; every write of a message's
 * progress fenced on it, so a sender whose lease was taken over records nothing.
 */
export class RemissionLease {
  private readonly heartbeat: NodeJS.Timeout;
  private renewal: Promise<void> = Promise.resolve();

  private constructor(
    private readonly db: Db,
    readonly remission: RemissionForSending,
    readonly owner: string,
    ttlMs: number,
    onRenewalError: (err: unknown) => void,
  ) {
    this.heartbeat = setInterval(
      () => {
        this.renewal = this.renewal.then(() =>
          remissionSendStore.renewLease(db, remission.id, owner, ttlMs).then(() => undefined, onRenewalError),
        );
      },
      Math.max(100, Math.floor(ttlMs / 3)),
    );
    this.heartbeat.unref();
  }

  static async take(
    db: Db,
    id: string,
    owner: string,
    ttlMs: number,
    onRenewalError: (err: unknown) => void,
  ): Promise<RemissionLeaseAttempt> {
    const attempt = await remissionSendStore.acquireLease(db, id, owner, ttlMs);
    if (attempt.acquired) return { lease: new RemissionLease(db, attempt.remission, owner, ttlMs, onRenewalError) };
    return attempt.finished ? { finished: true } : { retryAt: attempt.retryAt };
  }

  /** Runs `work` in a transaction holding the remission's row, only while the lease is still this sender's. */
  fenced<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      if (!(await remissionSendStore.lockOwned(tx, this.remission.id, this.owner))) throw new LeaseLostError(this.remission.id);
      return work(tx);
    });
  }

  /** Lets the lease go: whether the remission still sends and when it may next; undefined when the lease was lost. */
  async release(): Promise<{ sending: boolean; nextSendAt: Date } | undefined> {
    clearInterval(this.heartbeat);
    await this.renewal;
    return remissionSendStore.releaseLease(this.db, this.remission.id, this.owner);
  }
}
