import type { Environment } from '../simulator-types';

/**
 * Behaviours of the real service that a test can switch on (what integrators reported meeting on AEAT's services).
 * Where each acts:
 * - before the message is read: `connectionReset`, `hang` (no answer for `ms`), `http503` (HTML page, `x-site: Sede`),
 *   `http500` (HTML page), `http500Empty` (no body, as when the certificate holder may not act for the taxpayer),
 *   `soapFault` (any whole-message code as a SOAP Fault: the table's, 102 "Error interno … Id. Error: N", 20009,
 *   401 "@firma COD_066");
 * - after the records were processed and stored: `storedThenFailed` (a Server fault answers instead), `replyLost`
 *   (the connection is dropped);
 * - in a census check (VNifV2): `censusRepeatedRows` (the answer repeats some rows, as integrators saw with
 *   thousands of NIFs), `censusNotProcessed` (a row, or the rows of the NIF in scope, answered `NO PROCESADO`); a fault
 *   without a body is `http500Empty` scoped to `operation: "VNifV2"`;
 * - per record: `recordCode` (a record-level code rejects it unstored; an accepted-with-errors code stores it with
 *   that code; 3000 answers a duplicate), `duplicateWithoutDetail` (a 3000 answer without RegistroDuplicado).
 */
export const FAULT_KINDS = [
  'connectionReset',
  'hang',
  'http503',
  'http500',
  'http500Empty',
  'soapFault',
  'storedThenFailed',
  'replyLost',
  'recordCode',
  'duplicateWithoutDetail',
  'censusRepeatedRows',
  'censusNotProcessed',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export const OPERATIONS = ['RegFactu', 'Consulta', 'VNifV2'] as const;
export type SoapOperation = (typeof OPERATIONS)[number];

/** Which requests a fault applies to; every field left out matches everything. */
export interface FaultScope {
  /** The taxpayer: Cabecera/ObligadoEmision of a send, ObligadoEmision or Destinatario of a consulta, a census row's Nif. */
  nif?: string;
  /** The holder of the TLS client certificate. */
  certificateNif?: string;
  environment?: Environment;
  operation?: SoapOperation;
  /** recordCode only: the record's NumSerieFactura. */
  invoiceNumber?: string;
}

/** How often: the next `next` matches, or each match with `probability`; neither means every match until cleared. */
export interface FaultTiming {
  next?: number;
  probability?: number;
}

/** The kinds that take no options. */
type PlainKind =
  | 'connectionReset'
  | 'http503'
  | 'http500'
  | 'http500Empty'
  | 'replyLost'
  | 'duplicateWithoutDetail'
  | 'censusRepeatedRows'
  | 'censusNotProcessed';

export type FaultSpec =
  | { [K in PlainKind]: { kind: K } }[PlainKind]
  /** Holds the request without answering for `ms` (default 660 s, past the 600 s observed), then drops it. */
  | { kind: 'hang'; ms?: number }
  /** httpStatus defaults to 200 for the codes observed inside an HTTP 200 answer, 500 otherwise. */
  | { kind: 'soapFault'; code: number; httpStatus?: 200 | 500 }
  /** code: the Server fault answered after storing (default 102). */
  | { kind: 'storedThenFailed'; code?: number }
  | { kind: 'recordCode'; code: number };

export type InjectedFault = FaultSpec & FaultScope & FaultTiming;

/** An injected fault as held (and shown by GET /__sim/state): with its id, for clearing it alone. */
export type ActiveFault = InjectedFault & { id: number };

/** What a request is known by when faults are matched. */
export interface FaultSubject {
  nif?: string;
  certificateNif?: string;
  environment: Environment;
  operation?: SoapOperation;
  invoiceNumber?: string;
}
