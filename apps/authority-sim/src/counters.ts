import { FAULT_KINDS, type FaultKind } from './faults/fault-types';
import { createSignatureCounts, type SignatureCounts } from './signature-checks';
import type { Environment } from './simulator-types';

export interface RegisteredRef {
  /** For an anulación, the cancelled invoice. */
  invoiceNumber: string;
  invoiceDate: string;
  operation: 'Alta' | 'Anulacion';
  /** Subsanacion=S: the alta replaced (or reactivated) the one held. */
  correction?: true;
  state: 'Correcto' | 'AceptadoConErrores';
  hash: string;
  environment: Environment;
}

/** What tests and benchmarks read (state.counters, GET /__sim/state). */
export interface SimulatorCounters {
  /** SOAP POSTs to the endpoint, whatever happened to them. */
  requests: number;
  regFactuRequests: number;
  consultaRequests: number;
  /** Census checks (VNifV2), whatever happened to them. */
  censusRequests: number;
  /** VIES checks of one VAT number (the stand-in's POST /check-vat-number). */
  viesRequests: number;
  recordsReceived: number;
  /** Of recordsReceived, those sent to RequerimientoSOAP (on the authority's request). */
  requirementRecords: number;
  /** Records the validation service for NO VERI*FACTU records judged (ValRegistroNoVerifactu); it stores none. */
  recordsValidated: number;
  /** Records accepted (Correcto + AceptadoConErrores), altas and anulaciones, both environments. */
  recordsRegistered: number;
  recordsAcceptedWithErrors: number;
  recordsRejected: number;
  /** Lines answered 3000. */
  duplicates: number;
  /** Sends before TiempoEsperaEnvio elapsed with fewer than 1000 records. */
  flowControlViolations: number;
  /** Records whose RegistroAnterior is not the record registered just before for that taxpayer and system. */
  chainMismatches: number;
  maxRecordsPerMessage: number;
  /** Injected faults by kind as they fired, plus SOAP Faults answered by the rules (clientFault). */
  faults: Record<FaultKind | 'clientFault', number>;
  /** Codes of the SOAP Faults answered (e.g. {"4112": 1}). */
  faultCodes: Record<string, number>;
  /** Line error codes answered (e.g. {"2000": 3, "1108": 1}). */
  lineCodes: Record<string, number>;
  /** Per issuer NIF, the records accepted, in arrival order, both environments. */
  registeredByNif: Record<string, RegisteredRef[]>;
  /** The records' signatures, verified while messages are validated (validateSchema). */
  signatures: SignatureCounts;
}

export function createCounters(): SimulatorCounters {
  const faults = Object.fromEntries([...FAULT_KINDS, 'clientFault'].map((kind) => [kind, 0])) as SimulatorCounters['faults'];
  return {
    requests: 0,
    regFactuRequests: 0,
    consultaRequests: 0,
    censusRequests: 0,
    viesRequests: 0,
    recordsReceived: 0,
    requirementRecords: 0,
    recordsValidated: 0,
    recordsRegistered: 0,
    recordsAcceptedWithErrors: 0,
    recordsRejected: 0,
    duplicates: 0,
    flowControlViolations: 0,
    chainMismatches: 0,
    maxRecordsPerMessage: 0,
    faults,
    faultCodes: {},
    lineCodes: {},
    registeredByNif: {},
    signatures: createSignatureCounts(),
  };
}

export function increment(map: Record<string, number>, key: string | number): void {
  map[key] = (map[key] ?? 0) + 1;
}
