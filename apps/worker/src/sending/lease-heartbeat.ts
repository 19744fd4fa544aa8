/**
 * Renews the sender's lease while a message is in flight. If a renewal finds the lease gone (this process stalled
 * past its expiry and another worker took over), the send's results must not be written: `lost` says so.
 */
export class LeaseHeartbeat {
  private timer: NodeJS.Timeout | undefined;
  private lostLease = false;
  private inFlight: Promise<void> = Promise.resolve();

  constructor(
    private readonly renew: () => Promise<boolean>,
    private readonly intervalMs: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  start(): this {
    this.timer = setInterval(() => {
      this.inFlight = this.inFlight.then(async () => {
        try {
          if (!(await this.renew())) this.lostLease = true;
        } catch (err) {
          // A failed renewal is not a lost lease: the fenced write at the end decides.
          this.onError(err);
        }
      });
    }, this.intervalMs);
    this.timer.unref();
    return this;
  }

  get lost(): boolean {
    return this.lostLease;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.inFlight;
  }
}
