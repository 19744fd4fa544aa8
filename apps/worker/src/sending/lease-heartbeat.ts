/**
 * Renews the sender's lease while it works. A renewal that finds the lease gone (this process stalled past its
 * expiry and another worker took over) changes nothing by itself: every write is fenced on the lease anyway.
 */
export class LeaseHeartbeat {
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> = Promise.resolve();

  constructor(
    private readonly renew: () => Promise<unknown>,
    private readonly intervalMs: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  start(): this {
    this.timer = setInterval(() => {
      this.inFlight = this.inFlight.then(async () => {
        try {
          await this.renew();
        } catch (err) {
          // Not fatal: if the lease is really lost, the next fenced write refuses.
          this.onError(err);
        }
      });
    }, this.intervalMs);
    this.timer.unref();
    return this;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.inFlight;
  }
}
