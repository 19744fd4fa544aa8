/**
 * The jobs this process is running, so that a shutdown can wait for exactly them (BullMQ's own wait cannot be told
 * to give up) and stop waiting once they can no longer finish.
 */
export class JobsInHand {
  private readonly running = new Set<Promise<unknown>>();

  /** `processor`, counted while each of its runs is in hand. */
  track<A extends unknown[], R>(processor: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
    return (...args) => {
      const run = processor(...args);
      const settled = run.then(
        () => undefined,
        () => undefined,
      );
      this.running.add(settled);
      void settled.then(() => this.running.delete(settled));
      return run;
    };
  }

  get count(): number {
    return this.running.size;
  }

  /** Resolves once every job in hand now has ended, whatever its outcome. */
  async settled(): Promise<void> {
    await Promise.all([...this.running]);
  }
}
