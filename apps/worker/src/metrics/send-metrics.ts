import type { Db } from '@vf/db';
import { sendStateStore, submissionBatchStore } from '@vf/db';
import type { InvoiceOutcome } from '@vf/db';
import { flowControlWait, sendDuration, sendsTotal, sentRecordsTotal } from '@vf/metrics';
import type { Verdict } from '../sending/verdict';

export type SendOutcome = 'answered' | 'message_rejected' | 'server_fault' | 'no_answer';

function outcomeOf(verdict: Verdict): SendOutcome {
  if (verdict.exchange === 'answered') return 'answered';
  if (verdict.exchange === 'refused') return 'message_rejected';
  return verdict.submission.outcome === 'fault' ? 'server_fault' : 'no_answer';
}

/** One message and its records, once their outcomes are committed. */
export function recordSend(result: Verdict, settled: InvoiceOutcome[], seconds: number): void {
  const outcome = outcomeOf(result);
  const faultCode = result.submission.faultCode;
  sendsTotal.inc(faultCode ? { outcome, code: faultCode } : { outcome });
  sendDuration.observe({ outcome }, seconds);
  for (const o of settled) sentRecordsTotal.inc(o.code != null ? { status: o.status, code: String(o.code) } : { status: o.status });
}

/**
 * A sender stopped with the lease released: if records are still waiting, they wait until flow control (or the
 * backoff after a failure) lets the next message go, however many workers there are.
 */
export async function recordFlowControlWait(db: Db, chainId: string, reason: 'waiting_time' | 'backoff'): Promise<void> {
  const [state, waiting] = await Promise.all([sendStateStore.get(db, chainId), submissionBatchStore.chainHasWork(db, chainId)]);
  if (!state || !waiting) return;
  flowControlWait.observe({ reason }, Math.max(0, state.nextSendAt.getTime() - Date.now()) / 1000);
}
