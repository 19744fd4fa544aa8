import type { InvoiceOutcome, SendState } from '@vf/db';
import { backoffDelayMs, type BackoffSettings } from './backoff-policy';
import { recordOutcome, type RecordVerdict, type Verdict } from './judge-answer';

export interface RetryPlan {
  retryAt: Date;
  /** Since when this chain's sends have been failing (now, when this is the first failure). */
  failingSince: Date;
  now: Date;
  errorAfterSeconds: number;
}

/**
 * When the records that must go again are tried: an exponential backoff on the chain's run of failures, but never
 * earlier than flow control allows counted from now (a message without an answer may have been processed), nor than
 * `minSeconds` (a failing chain goes again at most once a minute).
 */
export function retryTime(
  verdict: Verdict,
  state: SendState,
  backoff: BackoffSettings & { minSeconds: number },
  now: Date,
  random: () => number = Math.random,
): Date {
  const delayMs = backoffDelayMs(state.consecutiveFailures, backoff, random);
  const waitSeconds = verdict.exchange === 'unanswered' ? state.waitSeconds : verdict.waitSeconds;
  // Never sooner than the floor (the code catalogue's once a minute), whatever the waiting time last answered.
  return new Date(now.getTime() + Math.max(delayMs, waitSeconds * 1000, backoff.minSeconds * 1000));
}

/**
 * No usable answer: each record goes again, unchanged, at `retryAt`, showing `queued` or, past the error threshold
 * (or with an answer this service could not understand), `error` meanwhile (`recordOutcome.retried`).
 */
export function judgeRetry(again: Extract<RecordVerdict, { kind: 'again' }>[], plan: RetryPlan): InvoiceOutcome[] {
  const overdue = plan.now.getTime() - plan.failingSince.getTime() >= plan.errorAfterSeconds * 1000;
  return again.map(({ sent, reason, code, unknownState }) =>
    recordOutcome.retried({
      invoiceId: sent.invoiceId,
      reason,
      code,
      unknownState,
      retryAt: plan.retryAt,
      failingSince: plan.failingSince,
      overdue,
    }),
  );
}
