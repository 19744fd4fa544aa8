import { availableParallelism } from 'node:os';
import { signRecordAsync, type SigningIdentity, type SignOptions } from '@vf/signing';

/**
 * Signatures in progress at once: two per core keep every core's thread-pool thread fed while this thread writes the
 * next records, and stay within libuv's four threads on a small machine, so that the pool's other users (DNS, files)
 * wait for at most a few signatures.
 */
export const SIGNING_WINDOW = Math.min(4, Math.max(2, availableParallelism() * 2));

/**
 * Signs records on the thread pool (signRecordAsync), at most `size` at a time: `add` starts a signature once there is
 * room, `signed` waits for all of them. The first failure is kept and thrown by `signed`, after the others have ended.
 */
export class SigningWindow {
  private readonly inFlight = new Set<Promise<void>>();
  private failure: unknown;

  constructor(
    private readonly identity: SigningIdentity,
    private readonly size = SIGNING_WINDOW,
  ) {}

  async add(record: string, options: SignOptions, done: (signed: string) => void): Promise<void> {
    while (this.inFlight.size >= this.size) await Promise.race(this.inFlight);
    const signing: Promise<void> = signRecordAsync(record, this.identity, options).then(done, (err: unknown) => {
      this.failure ??= err;
    });
    const tracked = signing.finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
  }

  async signed(): Promise<void> {
    await Promise.all(this.inFlight);
    if (this.failure !== undefined) throw this.failure;
  }
}
