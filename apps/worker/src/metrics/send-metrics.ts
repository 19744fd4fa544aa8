import type { InvoiceOutcome, LeaseEnd } from '@vf/db';
import type { Logger } from 'pino';
import { checkAuthorityClock, CLOCK_WARNING_SECONDS } from '@vf/authority-client';
import {
  authorityClockOffset,
  flowControlWait,
  scenarioSendsTotal,
  senderStopsTotal,
  sendDuration,
  sendsTotal,
  sentRecordsTotal,
} from '@vf/metrics';
import { sendOutcome, type Verdict } from '../sending/judge-answer';

/**
 * One message and its records, once their outcomes are committed. A sandbox scenario's message went to the simulator:
 * counted apart, so that a tenant's rehearsed outage or refusal never reads as the authority's.
 */
export function recordSend(result: Verdict, settled: InvoiceOutcome[], seconds: number, scenario = false): void {
  const outcome = sendOutcome(result);
  if (scenario) {
    scenarioSendsTotal.inc({ outcome });
    return;
  }
  const faultCode = result.submission.faultCode;
  sendsTotal.inc(faultCode ? { outcome, code: faultCode } : { outcome });
  sendDuration.observe({ outcome }, seconds);
  for (const o of settled) sentRecordsTotal.inc(o.code != null ? { status: o.status, code: String(o.code) } : { status: o.status });
}

/**
 * A sender stopped with the lease released: if records are still waiting, they wait until flow control (or the
 * backoff after a failure) lets the next message go, however many workers there are.
 */
export function recordFlowControlWait(ended: LeaseEnd, reason: 'waiting_time' | 'backoff'): void {
  if (!ended.waiting) return;
  flowControlWait.observe({ reason }, Math.max(0, ended.nextSendAt.getTime() - Date.now()) / 1000);
}

/**
 * The authority's clock against this worker's, from an answer's `Date` header. A worker whose clock drifts writes
 * FechaHoraHusoGenRegistro the authority flags with 2004.
 */
export function recordClockOffset(logger: Logger, dateHeader: string, receivedAt: Date, chainId: string): void {
  const clock = checkAuthorityClock(dateHeader, receivedAt);
  if (!clock) return;
  const { offsetSeconds } = clock;
  authorityClockOffset.set(offsetSeconds);
  if (clock.tooFar)
    logger.warn(
      { chainId, offsetSeconds, authorityDate: dateHeader, workerDate: receivedAt.toISOString() },
      `this worker's clock is more than ${CLOCK_WARNING_SECONDS} s away from the authority's: records may be stored with error 2004; synchronise the clock (NTP)`,
    );
}

/** The authority suspended the certificate's access: every send under it is stopped until an operator resumes it. */
export function recordSenderStop(
  logger: Logger,
  stop: { chainId: string; certificate: { fingerprint: string; subject: string }; code: number; message: string },
): void {
  senderStopsTotal.inc({ code: String(stop.code) });
  logger.error(
    {
      chainId: stop.chainId,
      code: stop.code,
      authorityMessage: stop.message,
      certificateFingerprint: stop.certificate.fingerprint,
      certificateSubject: stop.certificate.subject,
    },
    `sending stopped: the authority suspended access for this certificate (${stop.code}); nothing goes under it until an operator resumes it with npm run sender-stops -- resume ${stop.certificate.fingerprint}`,
  );
}
