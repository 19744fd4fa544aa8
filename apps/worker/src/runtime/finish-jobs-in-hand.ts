import type { Logger } from 'pino';
import type { DependencyReport } from '@vf/lifecycle';
import type { JobsInHand } from './jobs-in-hand';

const LOOK_EVERY_MS = 500;

/**
 * Waits for the jobs in hand to end, unless PostgreSQL is found unreachable meanwhile: every send records its result
 * there under its lease, so a job cannot finish without it. Those jobs are then given up: their leases expire and
 * the next worker resends what they held (decision 0003; the authority answers 3000 for anything it had
 * registered, checked against the record's huella). Returns whether any was given up.
 */
export async function finishJobsInHand(inHand: JobsInHand, inspect: () => Promise<DependencyReport>, logger: Logger): Promise<boolean> {
  if (inHand.count === 0) return false;
  let done = false;
  const finished = inHand.settled().then(() => (done = true));
  while (!done) {
    const [report] = await Promise.all([inspect(), new Promise((resolve) => setTimeout(resolve, LOOK_EVERY_MS))]);
    if (done) break;
    if (report.checks.database === 'unavailable') {
      logger.warn(
        { jobs: inHand.count },
        'PostgreSQL is unreachable: the jobs in hand cannot record their results and are given up; their leases expire and another worker resends them',
      );
      return true;
    }
  }
  await finished;
  return false;
}
