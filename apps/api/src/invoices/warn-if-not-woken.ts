import type { Logger } from 'pino';
import type { AppendOutcome } from '@vf/chain';

/** Once the wake-up is over (after the answer has gone), the records it failed to enqueue are logged. */
export function warnIfNotWoken(log: Logger, { woken, outcomes }: AppendOutcome): void {
  void woken.then((err) => {
    if (err === undefined) return;
    for (const o of outcomes) {
      if (o.ok)
        log.warn(
          { err, invoiceId: o.registered.id, chainId: o.registered.chainId },
          'invoice stored but not enqueued; the reconciler will enqueue it',
        );
    }
  });
}
