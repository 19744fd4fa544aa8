import type { Invoice } from './operation-types.ts';

export interface WaitOptions {
  /** Gives up with an Error after this long (default 5 minutes). */
  timeoutMs?: number;
  /** Between two reads (default 1 s). */
  intervalMs?: number;
}

const FINAL = new Set(['accepted', 'accepted_with_warnings', 'rejected']);

/** Final: the authority answered, or an error waits for someone (no next attempt is planned). */
export const isFinal = (invoice: Pick<Invoice, 'authority_status' | 'next_attempt_at'>) =>
  FINAL.has(invoice.authority_status) || (invoice.authority_status === 'error' && invoice.next_attempt_at === null);

export async function waitForFinalStatus(read: () => Promise<Invoice>, options: WaitOptions = {}): Promise<Invoice> {
  const { timeoutMs = 300_000, intervalMs = 1_000 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const invoice = await read();
    if (isFinal(invoice)) return invoice;
    if (Date.now() + intervalMs > deadline)
      throw new Error(`invoice ${invoice.id} is still ${invoice.authority_status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
