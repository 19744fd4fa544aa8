import { createHash, randomBytes } from 'node:crypto';
import { formatGeneratedAt, type CancellationRecord, type ChainRecord, type InvoiceId, type RegistrationRecord } from '@vf/core';

/** What the authority holds for one invoice (IDEmisorFactura + NumSerieFactura + FechaExpedicionFactura). */
export interface StoredRecord {
  /** The latest record accepted for this invoice: its alta (or the subsanación that replaced it), or the anulación in force. */
  record: ChainRecord;
  /** The alta data held, kept while the invoice is anulada; absent when only an anulación sin registro previo arrived. */
  alta?: RegistrationRecord;
  state: 'Correcto' | 'AceptadoConErrores' | 'Anulado';
  errorCode?: number;
  errorDescription?: string;
  incident: boolean;
  requestId: string;
  csv: string;
  presenterNif: string;
  presentedAt: string;
  /** Arrival sequence of the invoice's first record, for consulta ordering and pagination. */
  seq: number;
  /** Registered through the authority's web form, not by a SIF: no SIF may subsanar or anular it (3004). */
  viaForm?: boolean;
}

function invoiceKey(id: InvoiceId): string {
  return `${id.issuerNif}\u0000${id.invoiceNumber}\u0000${id.invoiceDate}`;
}

/** What chain tracking reads of a record: enough of it survives in a record rejected for the form of a value. */
export type ChainFacts = Pick<ChainRecord, 'id' | 'hash' | 'previous'> & {
  system: Pick<ChainRecord['system'], 'NIF' | 'IdSistemaInformatico' | 'NumeroInstalacion'>;
};

/** A chain belongs to one taxpayer and one installation of one system (error 2007). */
function chainKey(record: ChainFacts): string {
  const s = record.system;
  return `${record.id.issuerNif}\u0000${s.NIF}\u0000${s.IdSistemaInformatico}\u0000${s.NumeroInstalacion}`;
}

const CSV_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

type Presentation = Omit<StoredRecord, 'record' | 'alta' | 'state' | 'errorCode' | 'errorDescription' | 'seq' | 'viaForm'>;

/** The SistemaInformatico the simulator gives invoices entered through the web form: the authority's own. */
const WEB_FORM_SYSTEM = {
  NombreRazon: 'AGENCIA ESTATAL DE ADMINISTRACION TRIBUTARIA',
  NIF: 'Q2826000H',
  NombreSistemaInformatico: 'Formulario de la sede electronica',
  IdSistemaInformatico: 'FW',
  Version: '1.0',
  NumeroInstalacion: '1',
  TipoUsoPosibleSoloVerifactu: 'S',
  TipoUsoPosibleMultiOT: 'S',
  IndicadorMultiplesOT: 'S',
} as const;
type Outcome = { state: 'Correcto' | 'AceptadoConErrores'; errorCode?: number; errorDescription?: string };

/**
 * What the simulated authority holds in one environment: one entry per invoice, updated by the operations
 * matrix (AEAT Validaciones y errores, annex 6 "Operativas admisibles"), chain heads, request ids and CSVs.
 */
export class Registry {
  private readonly byInvoice = new Map<string, StoredRecord>();
  private readonly chainHeads = new Map<string, ChainRecord>();
  /** Last record received per chain, registered or not: the service chains rejected records too. */
  private readonly lastReceived = new Map<string, ChainFacts>();
  private seq = 0;
  private requests = 0;

  find(id: InvoiceId): StoredRecord | undefined {
    return this.byInvoice.get(invoiceKey(id));
  }

  /** The last record registered for this record's taxpayer + system, if any. */
  chainHead(record: ChainFacts): ChainRecord | undefined {
    return this.chainHeads.get(chainKey(record));
  }

  /**
   * Whether the record's Encadenamiento points at the record received just before it for the same
   * chain (true when nothing was received before). Then remembers it as the latest.
   */
  chainsToLastReceived(record: ChainFacts): boolean {
    const key = chainKey(record);
    const last = this.lastReceived.get(key);
    this.lastReceived.set(key, record);
    if (!last) return true;
    const p = record.previous;
    return (
      p !== undefined &&
      p.issuerNif === last.id.issuerNif &&
      p.invoiceNumber === last.id.invoiceNumber &&
      p.invoiceDate === last.id.invoiceDate &&
      p.hash === last.hash
    );
  }

  /** OK(1): a first alta; OK(4)/(5): a subsanación replaces the held alta and, if anulada, reactivates it. */
  putAlta(record: RegistrationRecord, outcome: Outcome, presentation: Presentation): StoredRecord {
    return this.put(record, { ...outcome, alta: record }, presentation);
  }

  /** OK(7)/(8): the invoice becomes Anulado, its alta data kept; OK(9): an invoice known only by its anulación. */
  putCancellation(record: CancellationRecord, outcome: Outcome, presentation: Presentation): StoredRecord {
    const alta = this.find(record.id)?.alta;
    const { state: _accepted, ...codes } = outcome;
    return this.put(record, { ...codes, state: 'Anulado', ...(alta ? { alta } : {}) }, presentation);
  }

  private put(
    record: ChainRecord,
    held: Pick<StoredRecord, 'state' | 'alta' | 'errorCode' | 'errorDescription'>,
    presentation: Presentation,
  ): StoredRecord {
    const key = invoiceKey(record.id);
    const stored: StoredRecord = { record, ...held, ...presentation, seq: this.byInvoice.get(key)?.seq ?? ++this.seq };
    this.byInvoice.set(key, stored);
    this.chainHeads.set(chainKey(record), record);
    return stored;
  }

  /**
   * An invoice the taxpayer entered through the authority's web form: held as Correcto with its own huella, outside
   * every SIF chain. An alta of the same number is a duplicate (3000); a subsanación or anulación is refused (3004).
   */
  registerViaForm(id: InvoiceId, now: Date): StoredRecord {
    const record: RegistrationRecord = {
      id,
      issuerName: id.issuerNif,
      invoiceType: 'F1',
      description: 'Factura dada de alta mediante el formulario de la sede electronica',
      lines: [],
      totalTax: '0.00',
      total: '0.00',
      system: WEB_FORM_SYSTEM,
      generatedAt: formatGeneratedAt(now),
      hash: createHash('sha256')
        .update(`web-form:${invoiceKey(id)}`)
        .digest('hex')
        .toUpperCase(),
    };
    const key = invoiceKey(id);
    const stored: StoredRecord = {
      record,
      alta: record,
      state: 'Correcto',
      incident: false,
      requestId: this.nextRequestId(now),
      csv: this.newCsv(),
      presenterNif: id.issuerNif,
      presentedAt: formatGeneratedAt(now),
      seq: this.byInvoice.get(key)?.seq ?? ++this.seq,
      viaForm: true,
    };
    this.byInvoice.set(key, stored);
    return stored;
  }

  /** All invoices of an issuer, in arrival order. */
  ofIssuer(nif: string): StoredRecord[] {
    return this.all().filter((s) => s.record.id.issuerNif === nif);
  }

  all(): StoredRecord[] {
    return [...this.byInvoice.values()].sort((a, b) => a.seq - b.seq);
  }

  /** IdPeticion: digits like AEAT's, unique per message (TextMax20). */
  nextRequestId(now: Date): string {
    this.requests += 1;
    const stamp = now.toISOString().replace(/\D/g, '').slice(0, 14);
    return `${stamp}${String(this.requests % 1_000_000).padStart(6, '0')}`;
  }

  /** 16-character CSV (e.g. A-86U4KHPACUMVZE), only for messages with at least one accepted record. */
  newCsv(): string {
    const bytes = randomBytes(14);
    return `A-${Array.from(bytes, (b) => CSV_ALPHABET[b % CSV_ALPHABET.length]).join('')}`;
  }

  clear(): void {
    this.byInvoice.clear();
    this.chainHeads.clear();
    this.lastReceived.clear();
    this.seq = 0;
    this.requests = 0;
  }
}
