import type { CancellationRecord, ChainRecord, InvoiceId, RegistrationRecord } from '@vf/core';

/** Cabecera of a RegFactuSistemaFacturacion message: one taxpayer per message. */
export interface SubmissionHeader {
  obligado: { name: string; nif: string };
  /** RemisionVoluntaria/Incidencia = S when a technical incident delayed these records. */
  incident?: boolean;
  /**
   * RemisionRequerimiento: records kept by a NO VERI*FACTU system, sent on the authority's request to its
   * RequerimientoSOAP service only. `end` is FinRequerimiento: S on the last message of the remission, N before it.
   */
  requirement?: { reference: string; end: boolean };
}

export type RecordState = 'Correcto' | 'AceptadoConErrores' | 'Incorrecto';

/** The Operacion flags a response line echoes, as literals (N and absent both mean "not set"). */
export interface OperationFlags {
  subsanacion?: 'S' | 'N';
  rechazoPrevio?: 'N' | 'S' | 'X';
  sinRegistroPrevio?: 'S' | 'N';
}

export interface ResponseLine {
  /** For an anulación, the cancelled invoice's id. */
  id: InvoiceId;
  operation: 'Alta' | 'Anulacion';
  flags?: OperationFlags;
  externalRef?: string;
  /**
   * EstadoRegistro; 'Unknown' when the authority answered a value outside list L19 (kept in rawState):
   * the record's fate is then unknown, not a rejection, and has to be asked for (Consulta).
   */
  state: RecordState | 'Unknown';
  rawState?: string;
  errorCode?: number;
  errorDescription?: string;
  /** Present on code 3000: the state of the record the authority already holds. */
  duplicate?: {
    requestId: string;
    state: 'Correcta' | 'AceptadaConErrores' | 'Anulada';
    errorCode?: number;
    errorDescription?: string;
  };
}

/** A parsed RespuestaRegFactuSistemaFacturacion. */
export interface SubmissionResponse {
  kind: 'response';
  csv?: string;
  presenterNif?: string;
  presentedAt?: string;
  waitSeconds: number;
  /** EstadoEnvio; 'Unknown' for a value outside list L18 (kept in rawSendState). The lines decide each record. */
  sendState: 'Correcto' | 'ParcialmenteCorrecto' | 'Incorrecto' | 'Unknown';
  rawSendState?: string;
  lines: ResponseLine[];
}

/** A SOAP Fault: faultcode "env:Client"/"soapenv:Server", the AEAT code parsed from "Codigo[NNNN]." */
export interface SoapFault {
  kind: 'fault';
  faultCode: string;
  /** 'client' = the message is wrong (do not resend unchanged); 'server' = resend. */
  side: 'client' | 'server';
  code?: number;
  message: string;
}

export type ParsedReply = SubmissionResponse | SoapFault;

export type { RegistrationRecord, CancellationRecord, ChainRecord };

/**
 * Fields of the record the authority holds, as a consulta answer returns them (any may be absent): the alta's,
 * or for an anulada invoice the anulación's (flags, chain, system, time and huella; sinRegistroPrevio).
 */
export type RecordData = Partial<Omit<RegistrationRecord, 'id' | 'kind'>> & { sinRegistroPrevio?: boolean };

/** ConsultaFactuSistemaFacturacion as the issuer (Cabecera/ObligadoEmision). */
export interface ConsultaQuery {
  obligado: { name: string; nif: string };
  /** PeriodoImputacion: year "2025", month "01".."12" (of FechaOperacion, else FechaExpedicion). */
  period: { year: string; month: string };
  invoiceNumber?: string;
  /** FechaExpedicionFactura filter, dd-mm-yyyy. */
  invoiceDate?: string;
  externalRef?: string;
  /** ClavePaginacion: continue after this invoice. */
  pageKey?: InvoiceId;
  showIssuerName?: boolean;
  showSystem?: boolean;
}

export type StoredRecordState = 'Correcto' | 'AceptadoConErrores' | 'Anulado';

export interface ConsultaRecord {
  id: InvoiceId;
  /**
   * DatosRegistroFacturacion of the latest record the authority holds for this invoice: data.hash is its Huella
   * and data.generatedAt its FechaHoraHusoGenRegistro, what a client compares with its own record after a 3000.
   */
  data: RecordData;
  incident?: boolean;
  presentation?: { presenterNif: string; presentedAt: string; requestId: string };
  state: StoredRecordState;
  lastModified: string;
  errorCode?: number;
  errorDescription?: string;
}

/** A parsed RespuestaConsultaFactuSistemaFacturacion. */
export interface ConsultaResponse {
  kind: 'consulta';
  obligado: { name: string; nif: string };
  period: { year: string; month: string };
  /** IndicadorPaginacion = S: more records follow; ask again with pageKey. */
  hasMore: boolean;
  records: ConsultaRecord[];
  pageKey?: InvoiceId;
}

export type ParsedConsultaReply = ConsultaResponse | SoapFault;
