import { randomBytes } from 'node:crypto';
import type { InvoiceId, RegistrationRecord } from '@vf/core';

export interface StoredRecord {
  record: RegistrationRecord;
  state: 'Correcto' | 'AceptadoConErrores';
  errorCode?: number;
  errorDescription?: string;
  incident: boolean;
  requestId: string;
  csv: string;
  presenterNif: string;
  presentedAt: string;
  /** Arrival sequence, for consulta ordering and pagination. */
  seq: number;
}

function invoiceKey(id: InvoiceId): string {
  return `${id.issuerNif}\u0000${id.invoiceNumber}\u0000${id.invoiceDate}`;
}

/** A chain belongs to one taxpayer and one installation of one system (NOTES §1.6, error 2007). */
function chainKey(record: RegistrationRecord): string {
  const s = record.system;
  return `${record.id.issuerNif}\u0000${s.NIF}\u0000${s.IdSistemaInformatico}\u0000${s.NumeroInstalacion}`;
}

const CSV_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** What the simulated authority holds: registered records, chain heads, request ids and CSVs. */
export class Registry {
  private readonly byInvoice = new Map<string, StoredRecord>();
  private readonly chainHeads = new Map<string, RegistrationRecord>();
  /** Last record received per chain, registered or not: the service chains rejected records too. */
  private readonly lastReceived = new Map<string, RegistrationRecord>();
  private seq = 0;
  private requests = 0;

  find(id: InvoiceId): StoredRecord | undefined {
    return this.byInvoice.get(invoiceKey(id));
  }

  /** The last record registered for this record's taxpayer + system, if any. */
  chainHead(record: RegistrationRecord): RegistrationRecord | undefined {
    return this.chainHeads.get(chainKey(record));
  }

  /**
   * Whether the record's Encadenamiento points at the record received just before it for the same
   * chain (true when nothing was received before). Then remembers it as the latest.
   */
  chainsToLastReceived(record: RegistrationRecord): boolean {
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

  add(entry: Omit<StoredRecord, 'seq'>): StoredRecord {
    const stored = { ...entry, seq: ++this.seq };
    this.byInvoice.set(invoiceKey(entry.record.id), stored);
    this.chainHeads.set(chainKey(entry.record), entry.record);
    return stored;
  }

  /** All records of an issuer, in arrival order. */
  ofIssuer(nif: string): StoredRecord[] {
    return [...this.byInvoice.values()].filter((s) => s.record.id.issuerNif === nif).sort((a, b) => a.seq - b.seq);
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
