import type { ChainRecord, ServiceCause } from '@vf/core';
import type { AppConfig } from '@vf/config';
import type { DbOrTx } from '@vf/db';
import { firstHeldRecord, loadSendBatch, type BatchInvoice } from '@vf/db/src/stores/submission-batch-store';
import type { InvoiceOutcome } from '@vf/db/src/stores/submission-record-store';
import { loadSenderTaxpayer } from '@vf/db/src/stores/sender-taxpayer-store';
import { FULL_BATCH } from '@vf/db/src/stores/send-state-store';
import { buildRegFactuRequest, type SubmissionHeader } from '@vf/xml';
import { CertificateUnusableError, type ClientCertificate, type ClientCertificates } from '../transport/client-certificates';
import { selectEndpoint } from '../transport/select-endpoint';
import { rebuildRecord } from './rebuild-record';

export interface MessageRecord {
  invoiceId: string;
  record: ChainRecord;
}

/** A message ready to go: the exact XML, where, with which certificate. */
export interface PreparedMessage {
  /** The chain the records belong to: one issuer NIF, one environment. */
  chainId: string;
  taxpayerId: string;
  endpoint: string;
  certificate: ClientCertificate;
  incident: boolean;
  /** ObligadoEmision of the message (an anulación carries no issuer name of its own). */
  obligado: { name: string; nif: string };
  requestXml: string;
  records: MessageRecord[];
}

export type Preparation =
  | { kind: 'nothing_waiting' }
  /**
   * Records that cannot go (certificate, hash mismatch, unbuildable) or must wait behind one that cannot, to be
   * marked `error` before anything is sent.
   */
  | { kind: 'ready'; message: PreparedMessage | undefined; failed: InvoiceOutcome[] };

export interface PrepareDeps {
  authority: AppConfig['authority'];
  incidentAfterSeconds: number;
  certificates: ClientCertificates;
  now: () => Date;
}

/** An `error` that waits for the user: nothing is planned until the cause is fixed or the invoice is resent. */
function failure(invoiceId: string, cause: ServiceCause, reason: string): InvoiceOutcome {
  return { invoiceId, status: 'error', cause, lastError: reason, nextAttemptAt: null, note: `error before sending: ${reason}` };
}

// Records go in generation order: a later record never overtakes an earlier one that cannot go.
function heldBehind(rows: BatchInvoice[], earlier: { id: string }): InvoiceOutcome[] {
  return rows.map((r) => failure(r.id, 'waiting_for_earlier_record', `waiting for the earlier record ${earlier.id}, which needs attention`));
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The first record that cannot be written as XML, so the message can go with the records before it. */
function firstUnwritable(header: SubmissionHeader, records: MessageRecord[]): { index: number; reason: string } | undefined {
  for (let index = 0; index < records.length; index += 1) {
    try {
      buildRegFactuRequest(header, [records[index].record]);
    } catch (err) {
      return { index, reason: `the record cannot be written as XML: ${describe(err)}` };
    }
  }
  return undefined;
}

/**
 * Loads the chain's next records (chain order, at most 1,000), picks its taxpayer's client certificate and rebuilds
 * each record from the stored row, proving its huella. One chain is one NIF in one environment, so the message
 * carries one ObligadoEmision and goes to one endpoint. Nothing here touches the network.
 */
export async function prepareMessage(db: DbOrTx, chainId: string, deps: PrepareDeps): Promise<Preparation> {
  const [loaded, held] = await Promise.all([loadSendBatch(db, chainId, FULL_BATCH), firstHeldRecord(db, chainId)]);
  // Everything after a record that waits for the user waits with it.
  const blocked = held ? loaded.filter((i) => i.chainSeq > held.chainSeq) : [];
  const batch = held ? loaded.filter((i) => i.chainSeq < held.chainSeq) : loaded;
  const waiting = held ? heldBehind(blocked, held) : [];
  if (batch.length === 0) return waiting.length > 0 ? { kind: 'ready', message: undefined, failed: waiting } : { kind: 'nothing_waiting' };

  const taxpayer = await loadSenderTaxpayer(db, chainId);
  if (!taxpayer) return { kind: 'ready', message: undefined, failed: [...batch, ...blocked].map((i) => failure(i.id, 'taxpayer_missing', 'the taxpayer no longer exists')) };

  let certificate: ClientCertificate;
  try {
    certificate = deps.certificates.forTaxpayer(taxpayer);
  } catch (err) {
    if (!(err instanceof CertificateUnusableError)) throw err;
    return { kind: 'ready', message: undefined, failed: [...batch, ...blocked].map((i) => failure(i.id, err.problem, err.message)) };
  }

  const failed: InvoiceOutcome[] = [...waiting];
  const records: MessageRecord[] = [];
  for (const [index, row] of batch.entries()) {
    try {
      records.push({ invoiceId: row.id, record: rebuildRecord(row) });
    } catch (err) {
      failed.push(failure(row.id, 'record_mismatch', describe(err)), ...heldBehind(batch.slice(index + 1), row));
      break;
    }
  }
  if (records.length === 0) return { kind: 'ready', message: undefined, failed };

  const first = batch[0];
  const lateBefore = deps.now().getTime() - deps.incidentAfterSeconds * 1000;
  const going = batch.slice(0, records.length);
  // Incidencia = S once delayed: a record older than the tolerance, or one that an earlier attempt already carried.
  const incident = going.some((i) => i.sendAttempts > 0 || i.generatedAt.getTime() < lateBefore);
  const header: SubmissionHeader = { obligado: { name: first.issuerName, nif: first.issuerNif }, incident };

  let xml: string;
  try {
    xml = buildRegFactuRequest(header, records.map((r) => r.record));
  } catch (err) {
    const bad = firstUnwritable(header, records);
    if (!bad) throw err;
    const unwritable = batch[bad.index];
    failed.push(failure(unwritable.id, 'record_unwritable', bad.reason), ...heldBehind(batch.slice(bad.index + 1), unwritable));
    // The records before it go in the next pass, in a message of their own.
    return { kind: 'ready', message: undefined, failed };
  }
  return {
    kind: 'ready',
    failed,
    message: {
      chainId,
      taxpayerId: taxpayer.id,
      endpoint: selectEndpoint(deps.authority, first.isProduction),
      certificate,
      incident,
      obligado: header.obligado,
      requestXml: xml,
      records,
    },
  };
}
