import type { AppConfig } from '@vf/config';
import { senderStopStore, sendStateStore, submissionRecordStore, type InvoiceOutcome, type OpenedSubmission } from '@vf/db';
import type { SendLease } from '../lease/send-lease';
import { judgeRetry, retryTime } from '../sending/plan-retry';
import type { RecordVerdict, Verdict } from '../sending/verdict';
import type { OpenMessage } from './open-submission';

export interface SettleDeps {
  sender: AppConfig['sender'];
  now: () => Date;
  random?: () => number;
}

/**
 * A message's verdict written, fenced on the lease: the chain's timing, a sender stop, and each record's outcome, the
 * records that go again given their next attempt. Returns the outcomes written.
 */
export function settleVerdict(
  lease: SendLease,
  verdict: Verdict,
  message: OpenMessage,
  opened: OpenedSubmission,
  deps: SettleDeps,
): Promise<InvoiceOutcome[]> {
  const { chainId } = message;
  return lease.fenced(async (tx, state) => {
    if (verdict.exchange === 'answered') await sendStateStore.recordAnswerTiming(tx, chainId, verdict.waitSeconds);
    if (verdict.exchange === 'refused') await sendStateStore.recordRejectionTiming(tx, chainId);
    // A scenario's 4141 is the rehearsal of one: its record shows it, and no real send is stopped.
    if (verdict.stop && message.scenario === undefined)
      await senderStopStore.stop(tx, {
        certificateFingerprint: message.certificate.fingerprint,
        certificateSubject: message.certificate.subject,
        code: verdict.stop.code,
        message: verdict.stop.message,
      });
    const outcomes: InvoiceOutcome[] = verdict.records.flatMap((r) => (r.kind === 'settled' ? [r.outcome] : []));
    const again = verdict.records.filter((r): r is Extract<RecordVerdict, { kind: 'again' }> => r.kind === 'again');
    if (again.length > 0) {
      const { backoffBaseMs, backoffMaxMs, errorAfterSeconds, retryMinSeconds } = deps.sender;
      const at = deps.now();
      const retryAt = retryTime(
        verdict,
        state,
        { baseMs: backoffBaseMs, maxMs: backoffMaxMs, minSeconds: retryMinSeconds },
        at,
        deps.random,
      );
      // Only a send without an answer is part of an outage; records left open by an answer count from now, and the
      // chain's next message waits for them (a retry code inside an answer is retried no faster than a lost answer).
      const failingSince =
        verdict.exchange === 'unanswered'
          ? await sendStateStore.recordFailureTiming(tx, chainId, retryAt, at)
          : (await sendStateStore.deferNextSend(tx, chainId, retryAt), at);
      outcomes.push(...judgeRetry(again, { retryAt, failingSince, now: at, errorAfterSeconds }));
    }
    await submissionRecordStore.applyInvoiceOutcomes(tx, outcomes, { id: opened.submissionId, result: verdict.submission });
    return outcomes;
  });
}
