import { buildSoapFault } from '@vf/xml';
import { codeText, type RuleSetId } from './rules/rule-set';

/** What to answer to a SOAP request. SOAP 1.1 sends Faults with HTTP 500. */
export interface SoapOutcome {
  status: number;
  body: string;
  /** AEAT code of a Fault, for the counters. */
  faultCode?: number;
}

/** A Fault env:Client "Codigo[N].text" refusing the whole message; `detail` completes the table's text. */
export function clientFault(code: number, detail = '', ruleSet: RuleSetId = 'current'): SoapOutcome {
  return { status: 500, body: buildSoapFault({ side: 'client', code, message: codeText(ruleSet, code, detail) }), faultCode: code };
}

export function ok(body: string): SoapOutcome {
  return { status: 200, body };
}
