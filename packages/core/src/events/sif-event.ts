import type { ChainLink, InvoiceId, SistemaInformatico } from '../registration-record';

/**
 * TipoEvento (list L2E of Orden HAC/1177/2024's annex): 01/02 start and end of NO VERI*FACTU operation; 03/04 an
 * anomaly check of the invoice records launched, and an anomaly found; 05/06 the same for the event records; 07 a
 * backup restored; 08/09 an export of invoice records / of events; 10 the summary; 90 other.
 */
export const EVENT_TYPES = ['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '90'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** An event as its successor names it (EventoAnterior) and as a summary or an export cites it (RegEventoType). */
export interface EventLink {
  type: EventType;
  /** FechaHoraHusoGenEvento, as written. */
  generatedAt: string;
  hash: string;
}

/** Per kind of check (huellas, firmas, cadena, fechas): how many records it went through; absent = not done. */
export interface CheckCounts {
  hashes?: number;
  signatures?: number;
  chain?: number;
  dates?: number;
}

/** The amounts of the altas of a period, as SumaCuotaTotalAlta / SumaImporteTotalAlta write them. */
export interface RecordTotals {
  first?: ChainLink;
  last?: ChainLink;
  altas: number;
  taxSum: string;
  totalSum: string;
  anulaciones: number;
}

/** DatosPropiosEvento: the content of its own that an event type carries. */
export type EventData =
  | { kind: 'records_check'; counts: CheckCounts }
  | { kind: 'records_anomaly'; anomaly: AnomalyType; detail?: string; record?: InvoiceId }
  | { kind: 'events_check'; counts: CheckCounts }
  | { kind: 'events_anomaly'; anomaly: AnomalyType; detail?: string; event?: EventLink }
  | { kind: 'records_export'; from: string; to: string; totals: RecordTotals & { first: ChainLink; last: ChainLink } }
  | { kind: 'events_export'; from: string; to: string; first: EventLink; last: EventLink; count: number }
  | { kind: 'summary'; counts: { type: EventType; count: number }[]; totals: RecordTotals };

/**
 * TipoAnomalia (list L1E): 01 integridad-huella, 02 integridad-firma, 04 a record whose previous record is missing,
 * 08 a previous huella that is not the previous record's, 13 a time after the system's clock, 90 other.
 */
export type AnomalyType = '01' | '02' | '03' | '04' | '05' | '06' | '07' | '08' | '09' | '10' | '11' | '12' | '13' | '14' | '15' | '90';

/** A RegistroEvento's content (EventosSIF.xsd), without its signature. */
export interface SifEvent {
  system: SistemaInformatico;
  issuer: { name: string; nif: string };
  /** FechaHoraHusoGenEvento, e.g. 2026-11-29T10:00:00+01:00. */
  generatedAt: string;
  type: EventType;
  data?: EventData;
  /** OtrosDatosEvento (100 characters at most). */
  other?: string;
  /** The event before it in its chain; absent for the first (PrimerEvento=S). */
  previous?: EventLink;
  hash: string;
}
