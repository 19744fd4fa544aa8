import type { Agent } from 'node:http';
import { postSoapEnvelope, type SoapExchange } from './post-soap-envelope';

export type SoapOperation = 'RegFactuSistemaFacturacion' | 'ConsultaFactuSistemaFacturacion';

/** Each operation's SOAPAction as the vendored WSDL's binding declares it (AEAT's are empty; a test compares). */
export const SOAP_ACTIONS: Record<SoapOperation, string> = {
  RegFactuSistemaFacturacion: '',
  ConsultaFactuSistemaFacturacion: '',
};

export interface SoapTransportOptions {
  timeoutMs: number;
}

/**
 * Sends an already-built SOAP envelope over mutual TLS and hands back the raw exchange, read once by `readAnswer`. The
 * envelope is all there is to a SOAP call here, so no SOAP client library is involved: the `soap` package, with the
 * service description it parsed and its HTTP stack, held about 5 MB of the worker's heap for a header.
 */
export class SoapTransport {
  constructor(private readonly opts: SoapTransportOptions) {}

  /**
   * `request`: the envelope's text (sent as UTF-8), its bytes, or its bytes in parts. `headers`: extra request headers,
   * only ever for the simulator (the sandbox scenario a record goes under; see selectScenarioEndpoint).
   */
  send(
    operation: SoapOperation,
    endpoint: string,
    agent: Agent,
    request: string | Buffer | readonly Buffer[],
    headers?: Record<string, string>,
  ): Promise<SoapExchange> {
    return postSoapEnvelope(endpoint, request, {
      agent,
      timeoutMs: this.opts.timeoutMs,
      soapAction: SOAP_ACTIONS[operation],
      ...(headers && { headers }),
    });
  }
}
