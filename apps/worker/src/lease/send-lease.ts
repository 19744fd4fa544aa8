import { sendStateStore, type Db, type LeaseEnd, type SendState, type Tx } from '@vf/db';

/** The lease was taken over by another worker: this sender must write nothing more. */
export class LeaseLostError extends Error {
  constructor(chainId: string) {
    super(`send lease of chain ${chainId} lost to another worker`);
    this.name = 'LeaseLostError';
  }
}

export type LeaseAttempt = { lease: SendLease } | { retryAt: Date };

/**
 * A chain's send lease, from taking it to letting it go: one sender per chain across every worker process
 * (docs/decisions/0003-single-sender-lease.md). Taken only when flow control allows a send; renewed every third of
 * its time to live while held; every write of a send's results is fenced on it; kept for another message only if
 * flow control allows one at once; released at the end, after which the chain's job sleeps until its next send.
 */
export class SendLease {
  private readonly heartbeat: NodeJS.Timeout;
  private renewal: Promise<void> = Promise.resolve();

  private constructor(
    private readonly db: Db,
    readonly chainId: string,
    /** Unique per acquisition: a sender whose lease was taken over can no longer match it. */
    readonly owner: string,
    private readonly ttlMs: number,
    onRenewalError: (err: unknown) => void,
  ) {
    this.heartbeat = setInterval(
      () => {
        // A renewal that fails is not fatal: if the lease is really lost, the next fenced write refuses.
        this.renewal = this.renewal.then(() => this.renew().then(() => undefined, onRenewalError));
      },
      Math.max(100, Math.floor(ttlMs / 3)),
    );
    this.heartbeat.unref();
  }

  /**
   * Becomes the chain's sender, or says when to try again (the other holder's expiry, or flow control). A chain's
   * first lease makes its row, which keeps `firstWaitSeconds` as its waiting time until the authority's first answer.
   */
  static async take(
    db: Db,
    chainId: string,
    owner: string,
    { ttlMs, firstWaitSeconds }: { ttlMs: number; firstWaitSeconds: number },
    onRenewalError: (err: unknown) => void,
  ): Promise<LeaseAttempt> {
    const attempt = await sendStateStore.acquireLease(db, chainId, owner, ttlMs, firstWaitSeconds);
    if (!attempt.acquired) return { retryAt: attempt.retryAt };
    return { lease: new SendLease(db, chainId, owner, ttlMs, onRenewalError) };
  }

  /** Extends the lease; false when it was taken over. */
  renew(): Promise<boolean> {
    return sendStateStore.renewLease(this.db, this.chainId, this.owner, this.ttlMs);
  }

  /** Keeps the lease for another message only if flow control allows one now (or a full message waits). */
  keepForNext(): Promise<boolean> {
    return sendStateStore.continueLease(this.db, this.chainId, this.owner, this.ttlMs);
  }

  /** Runs `work` in a transaction holding the chain's send state row, only while the lease is still this sender's. */
  fenced<T>(work: (tx: Tx, state: SendState) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      const state = await sendStateStore.lockOwned(tx, this.chainId, this.owner);
      if (!state) throw new LeaseLostError(this.chainId);
      return work(tx, state);
    });
  }

  /**
   * Stops renewing and lets the lease go, marking as it goes the records that wait behind one in error (a lease that
   * could not be released expires). Returns when the chain may send next and whether records still wait; undefined
   * when the lease had been lost.
   */
  async release(): Promise<LeaseEnd | undefined> {
    clearInterval(this.heartbeat);
    await this.renewal;
    return sendStateStore.releaseLease(this.db, this.chainId, this.owner);
  }
}
