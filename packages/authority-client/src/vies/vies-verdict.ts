import type { SoapExchange } from '../exchange/soap-transport';
import type { CensusResult } from '../census/census-verdict';

/** What VIES said of a VAT number: known, not known, or nothing now (`not_processed`, with VIES's fault code). */
export type ViesDetail = 'identified' | 'not_identified' | 'not_processed';

export interface ViesVerdict {
  result: CensusResult;
  detail: ViesDetail;
  /** VIES's error (`MS_UNAVAILABLE`, `INVALID_INPUT`…), when it gave one. */
  faultCode?: string;
  /** VIES's consultation number: given only when the requester's own VAT number was sent; the evidence to keep. */
  requestIdentifier?: string;
  /** The trader's name as the member state publishes it (some, Spain among them, publish none). */
  traderName?: string;
}

/**
 * The faults that say a member state's service, or VIES itself, is busy or down now: the number was not checked,
 * and asking again later may answer. `valid:false` comes with some of them, and is not an answer.
 */
export const VIES_TRANSIENT_FAULTS: ReadonlySet<string> = new Set([
  'SERVICE_UNAVAILABLE',
  'MS_UNAVAILABLE',
  'TIMEOUT',
  'SERVER_BUSY',
  'MS_MAX_CONCURRENT_REQ',
  'MS_MAX_CONCURRENT_REQ_TIME',
  'GLOBAL_MAX_CONCURRENT_REQ',
  'GLOBAL_MAX_CONCURRENT_REQ_TIME',
]);

interface ViesBody {
  valid?: unknown;
  userError?: unknown;
  requestIdentifier?: unknown;
  name?: unknown;
  errorWrappers?: { error?: unknown }[];
}

const filled = (value: unknown) => (typeof value === 'string' && value.trim() !== '' && value.trim() !== '---' ? value.trim() : undefined);

function faultVerdict(code: string): ViesVerdict {
  // INVALID_INPUT: the number cannot be a VAT number of that country; anything else says nothing of the number.
  if (code === 'INVALID_INPUT') return { result: 'invalid', detail: 'not_identified', faultCode: code };
  return { result: 'unknown', detail: 'not_processed', faultCode: code };
}

function parse(body: string): ViesBody | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    return parsed !== null && typeof parsed === 'object' ? (parsed as ViesBody) : undefined;
  } catch {
    return undefined;
  }
}

/** What an exchange with `POST /check-vat-number` says, and whether asking again may give an answer. */
export function readViesAnswer(exchange: SoapExchange): { verdict: ViesVerdict; again: boolean } {
  const body = exchange.kind === 'http' ? parse(exchange.body) : undefined;
  if (!body) return { verdict: { result: 'unknown', detail: 'not_processed' }, again: true };
  const wrapped = Array.isArray(body.errorWrappers) ? body.errorWrappers.map((w) => filled(w?.error)).find(Boolean) : undefined;
  const userError = filled(body.userError);
  const code = wrapped ?? (userError !== 'VALID' && userError !== 'INVALID' ? userError : undefined);
  if (code) return { verdict: faultVerdict(code), again: VIES_TRANSIENT_FAULTS.has(code) };
  if (typeof body.valid !== 'boolean') return { verdict: { result: 'unknown', detail: 'not_processed' }, again: true };
  const requestIdentifier = filled(body.requestIdentifier);
  const traderName = filled(body.name);
  return {
    verdict: {
      result: body.valid ? 'valid' : 'invalid',
      detail: body.valid ? 'identified' : 'not_identified',
      ...(requestIdentifier && { requestIdentifier }),
      ...(body.valid && traderName && { traderName }),
    },
    again: false,
  };
}
