import { buildSoapFault } from '@vf/xml';
import { codeText, UNLISTED_FAULTS, type RuleSetId } from '../rules/rule-set';
import type { SoapOutcome } from '../soap-outcome';

/**
 * Whole-message technical codes that ask for a retry and were observed inside an HTTP 200 answer; record-level ones
 * of the same kind (1129, 1241, 1243, 1256, 1288) come as Incorrecto lines, which are in a 200 answer anyway.
 */
export const RETRY_CODES_INSIDE_200: ReadonlySet<number> = new Set([3500, 3501, 4103, 4108, 4110, 4111, 4118, 4128]);

/** "Id. Error: N" of a Codigo[102] fault: a number the authority gives each internal error. */
function errorId(): string {
  return String(Math.floor(100_000_000 + Math.random() * 900_000_000));
}

/**
 * An injected whole-message answer: the table's text (or the unlisted code's), env:Server for internal and technical
 * errors (a client resends), env:Client otherwise; HTTP 200 for the retry codes observed that way, 500 otherwise.
 */
export function injectedFault(ruleSet: RuleSetId, code: number, httpStatus?: 200 | 500): SoapOutcome {
  const unlisted = UNLISTED_FAULTS[code];
  const server = unlisted ? unlisted.side === 'server' : RETRY_CODES_INSIDE_200.has(code);
  const message = code === 102 ? `${unlisted!.text}, Id. Error: ${errorId()}` : codeText(ruleSet, code);
  return {
    status: httpStatus ?? (RETRY_CODES_INSIDE_200.has(code) ? 200 : 500),
    body: buildSoapFault({ side: server ? 'server' : 'client', code, message }),
    faultCode: code,
  };
}
