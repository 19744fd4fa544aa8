import { createHash } from 'node:crypto';
import type { Agent } from 'node:http';
import { backOff } from 'exponential-backoff';
import { postSoapEnvelope } from '../exchange/soap-transport';
import { readViesAnswer, type ViesVerdict } from './vies-verdict';
import type { ViesVatNumber } from './vies-vat-number';

export interface ViesCheckOptions {
  /** The REST API's base (`…/taxation_customs/vies/rest-api`). */
  baseUrl: string;
  /** Through the egress proxy when there is one; VIES asks no client certificate. */
  agent?: Agent;
  timeoutMs: number;
  /** The VAT number the check is asked under: VIES answers a consultation number only then. */
  requester?: ViesVatNumber;
  /** Attempts in all while VIES answers a transient fault or does not answer (4). */
  attempts?: number;
  /** The wait before the second attempt; each next one doubles, with jitter (500 ms). */
  firstDelayMs?: number;
}

/** VIES's verdict and, as evidence, the SHA-256 (hex) of the request whose answer gave it. */
export type ViesOutcome = ViesVerdict & { requestDigest: string };

class NotAnsweredYet extends Error {}

/**
 * Asks VIES (REST `POST /check-vat-number`) about one VAT number. A member state's or VIES's outage, a busy service
 * and a request that got no answer are asked again with backoff; what is still unanswered after the last attempt is
 * `unknown` with the last fault code, never `invalid`.
 */
export async function checkVatNumber(number: ViesVatNumber, opts: ViesCheckOptions): Promise<ViesOutcome> {
  const body = JSON.stringify({
    countryCode: number.countryCode,
    vatNumber: number.vatNumber,
    ...(opts.requester && { requesterMemberStateCode: opts.requester.countryCode, requesterNumber: opts.requester.vatNumber }),
  });
  const requestDigest = createHash('sha256').update(body, 'utf8').digest('hex');
  let last: ViesVerdict = { result: 'unknown', detail: 'not_processed' };
  const attempt = async () => {
    const exchange = await postSoapEnvelope(`${opts.baseUrl}/check-vat-number`, body, {
      agent: opts.agent,
      timeoutMs: opts.timeoutMs,
      soapAction: false,
      contentType: 'application/json',
    });
    const read = readViesAnswer(exchange);
    last = read.verdict;
    if (read.again) throw new NotAnsweredYet(last.faultCode ?? 'no answer');
  };
  await backOff(attempt, {
    numOfAttempts: opts.attempts ?? 4,
    startingDelay: opts.firstDelayMs ?? 500,
    timeMultiple: 2,
    jitter: 'full',
    retry: (error: unknown) => error instanceof NotAnsweredYet,
  }).catch((error: unknown) => {
    if (!(error instanceof NotAnsweredYet)) throw error;
  });
  return { ...last, requestDigest };
}
