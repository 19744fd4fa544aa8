import type { SoapOperation } from './faults/fault-types';
import type { Environment } from './simulator-types';

/** One SOAP request as the simulator received it: what a test reads to check who sent what, and how often. */
export interface LoggedRequest {
  /** When it arrived, by the simulator's clock (before its configured offset). */
  at: string;
  environment: Environment;
  operation?: SoapOperation;
  /** The taxpayer of the message (Cabecera) or of the consulta. */
  nif?: string;
  /** The invoices the request is about: NumSerieFactura of each record's IDFactura, or the consulta's filter. */
  invoiceNumbers: string[];
  /** What it was answered: `answered`, a fault kind, or `soapFault <code>`. */
  answer: string;
}

/** The most recent requests kept; older ones are dropped. */
export const REQUEST_LOG_SIZE = 10_000;

const ID_FACTURA = /<(?:[\w.-]+:)?IDFactura>[\s\S]*?<(?:[\w.-]+:)?NumSerieFactura(?:Anulada)?>([^<]*)</g;
const CONSULTA_NUMBER = /<(?:[\w.-]+:)?FiltroConsulta>[\s\S]*?<(?:[\w.-]+:)?NumSerieFactura>([^<]*)</;

/** The invoice numbers of a request, read without parsing it. */
export function requestInvoiceNumbers(xml: string, operation: SoapOperation | undefined): string[] {
  if (operation === 'Consulta') {
    const n = CONSULTA_NUMBER.exec(xml)?.[1];
    return n ? [n] : [];
  }
  return [...xml.matchAll(ID_FACTURA)].map((m) => m[1]!);
}

export function logRequest(log: LoggedRequest[], entry: LoggedRequest): void {
  log.push(entry);
  if (log.length > REQUEST_LOG_SIZE) log.splice(0, log.length - REQUEST_LOG_SIZE);
}
