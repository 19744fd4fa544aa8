import type { Logger } from 'pino';
import type { LeaseEnd } from '@vf/db';
import { LeaseLostError, type SendLease } from '../lease/send-lease';
import { recordFlowControlWait } from '../metrics/send-metrics';
import type { Verdict } from '../sending/verdict';

/** What one turn of the sender produced: a message's verdict, records failed or a conflict with nothing sent, or nothing to send. */
export type Step = Verdict | 'not_sent' | 'nothing_waiting';

/**
 * Message after message (each turn `sendNext`) while the lease is kept; then the lease goes, and whatever waits behind
 * a record in error says so as it goes. Returns what the release left (undefined when the lease was lost or could not
 * be released).
 */
export async function sendWhileAllowed(
  lease: SendLease,
  sendNext: (lease: SendLease) => Promise<Step>,
  { stopping, logger }: { stopping: () => boolean; logger: Logger },
): Promise<LeaseEnd | undefined> {
  const { chainId } = lease;
  let pause: 'waiting_time' | 'backoff' | undefined;
  let ended: LeaseEnd | undefined;
  try {
    while (!stopping()) {
      const step = await sendNext(lease);
      if (step === 'nothing_waiting') break;
      // Nothing usable came back: the chain backs off.
      if (step !== 'not_sent' && step.exchange === 'unanswered') {
        pause = 'backoff';
        break;
      }
      // Nothing went: carry on at once. Something went: again at once only if 1,000 records are already waiting.
      const kept = step === 'not_sent' ? await lease.renew() : await lease.keepForNext();
      if (!kept) {
        if (step !== 'not_sent') pause = 'waiting_time';
        break;
      }
    }
  } catch (err) {
    if (!(err instanceof LeaseLostError)) throw err;
    logger.warn({ chainId }, err.message);
  } finally {
    // Whatever now waits behind a record in error says so at once, not when flow control next lets a send go.
    ended = await lease.release().catch((err: unknown) => {
      logger.error({ err, chainId }, 'could not release the send lease; it will expire');
      return undefined;
    });
  }
  if (pause && ended) recordFlowControlWait(ended, pause);
  return ended;
}
