import type { RegistrationRecord } from '@vf/core';
import type { AppConfig } from '@vf/config';
import type { DbOrTx } from '@vf/db';
import { loadSendBatch, type BatchInvoice } from '@vf/db/src/stores/submission-batch-store';
import type { InvoiceOutcome } from '@vf/db/src/stores/submission-record-store';
import { loadSenderTaxpayer } from '@vf/db/src/stores/sender-taxpayer-store';
import { FULL_BATCH } from '@vf/db/src/stores/send-state-store';
import { buildRegFactuRequest, type SubmissionHeader } from '@vf/xml';
import { CertificateUnusableError, type ClientCertificate, type ClientCertificates } from '../transport/client-certificates';
import { selectEndpoint } from '../transport/select-endpoint';
import { rebuildRecord } from './rebuild-record';

export interface MessageRecord {
  invoiceId: string;
  record: RegistrationRecord;
}

/** A message ready to go: the exact XML, where, with which certificate. */
export interface PreparedMessage {
  taxpayerId: string;
  endpoint: string;
  certificate: ClientCertificate;
  incident: boolean;
  requestXml: string;
  records: MessageRecord[];
}

export type Preparation =
  | { kind: 'nothing_waiting' }
  /** Records that cannot go (certificate, hash mismatch, unbuildable), to be marked `error` before anything is sent. */
  | { kind: 'ready'; message: PreparedMessage | undefined; failed: InvoiceOutcome[] };

export interface PrepareDeps {
  authority: AppConfig['authority'];
  incidentAfterSeconds: number;
  certificates: ClientCertificates;
  now: () => Date;
}

function failure(invoiceId: string, reason: string): InvoiceOutcome {
  return { invoiceId, status: 'error', lastError: reason, note: `error before sending: ${reason}` };
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

// One message carries one ObligadoEmision and goes to one endpoint: if the taxpayer's NIF or environment changed
// between records, the message stops at the change and the rest follows in the next one, still in chain order.
function leadingRun(batch: BatchInvoice[]): BatchInvoice[] {
  const first = batch[0];
  const end = batch.findIndex((i) => i.issuerNif !== first.issuerNif || i.isProduction !== first.isProduction);
  return end === -1 ? batch : batch.slice(0, end);
}

function buildXml(header: SubmissionHeader, records: MessageRecord[]): { xml?: string; failed: InvoiceOutcome[] } {
  try {
    return { xml: buildRegFactuRequest(header, records.map((r) => r.record)), failed: [] };
  } catch (err) {
    // Find the records that cannot be written, so one bad row does not hold the whole chain back forever.
    const failed = records.flatMap((r) => {
      try {
        buildRegFactuRequest(header, [r.record]);
        return [];
      } catch (single) {
        return [failure(r.invoiceId, `the record cannot be written as XML: ${describe(single)}`)];
      }
    });
    if (failed.length === 0) throw err;
    return { failed };
  }
}

/**
 * Loads the taxpayer's next records (chain order, at most 1,000), picks its client certificate and rebuilds each
 * record from the stored row, proving its huella. Nothing here touches the network.
 */
export async function prepareMessage(db: DbOrTx, taxpayerId: string, deps: PrepareDeps): Promise<Preparation> {
  const batch = await loadSendBatch(db, taxpayerId, FULL_BATCH);
  if (batch.length === 0) return { kind: 'nothing_waiting' };
  const taxpayer = await loadSenderTaxpayer(db, taxpayerId);
  if (!taxpayer) return { kind: 'ready', message: undefined, failed: batch.map((i) => failure(i.id, 'the taxpayer no longer exists')) };

  let certificate: ClientCertificate;
  try {
    certificate = deps.certificates.forTaxpayer(taxpayer);
  } catch (err) {
    if (!(err instanceof CertificateUnusableError)) throw err;
    return { kind: 'ready', message: undefined, failed: batch.map((i) => failure(i.id, err.message)) };
  }

  const run = leadingRun(batch);
  const failed: InvoiceOutcome[] = [];
  const records: MessageRecord[] = [];
  for (const row of run) {
    try {
      records.push({ invoiceId: row.id, record: rebuildRecord(row) });
    } catch (err) {
      failed.push(failure(row.id, describe(err)));
    }
  }
  if (records.length === 0) return { kind: 'ready', message: undefined, failed };

  const first = run[0];
  const sent = new Set(records.map((r) => r.invoiceId));
  const lateBefore = deps.now().getTime() - deps.incidentAfterSeconds * 1000;
  // Incidencia = S once delayed: a record older than the tolerance, or one that an earlier attempt already carried.
  const incident = run.some((i) => sent.has(i.id) && (i.sendAttempts > 0 || i.generatedAt.getTime() < lateBefore));
  const header: SubmissionHeader = { obligado: { name: first.issuerName, nif: first.issuerNif }, incident };

  const built = buildXml(header, records);
  failed.push(...built.failed);
  // The records that could be written go in the next message, without the ones marked `error` here.
  if (!built.xml) return { kind: 'ready', message: undefined, failed };
  return {
    kind: 'ready',
    failed,
    message: {
      taxpayerId,
      endpoint: selectEndpoint(deps.authority, first.isProduction),
      certificate,
      incident,
      requestXml: built.xml,
      records,
    },
  };
}
