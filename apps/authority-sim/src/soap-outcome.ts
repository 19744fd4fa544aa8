import { aeatErrorText, buildSoapFault } from '@vf/xml';

/** What to answer to a SOAP request. SOAP 1.1 sends Faults with HTTP 500. */
export interface SoapOutcome {
  status: number;
  body: string;
  /** AEAT code of a client Fault, for the counters. */
  faultCode?: number;
}

export function clientFault(code: number, suffix = ''): SoapOutcome {
  return {
    status: 500,
    body: buildSoapFault({ side: 'client', code, message: `${aeatErrorText(code) ?? 'Error'}${suffix}` }),
    faultCode: code,
  };
}

export function ok(body: string): SoapOutcome {
  return { status: 200, body };
}
