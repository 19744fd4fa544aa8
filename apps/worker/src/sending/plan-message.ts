import { availableParallelism } from 'node:os';
import { selectEndpoint, selectScenarioEndpoint, type ClientCertificate } from '@vf/authority-client';
import { rebuildChainRecord } from '@vf/chain';
import type { ChainRecord, ServiceCause } from '@vf/core';
import type { AppConfig } from '@vf/config';
import { signedRecordMark, type BatchInvoice, type InvoiceOutcome, type NewSignedRecord } from '@vf/db';
import { isSignatureOf, signRecordAsync, type SigningIdentity, type SignOptions } from '@vf/signing';
import { buildRecordXml, regFactuRequestFrame, type SubmissionHeader } from '@vf/xml';
import { recordOutcome } from './judge-answer';

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
  /**
   * The request's bytes (UTF-8), exactly as they go, in parts sent one after the other: the frame's, and each record's
   * own. A record's text becomes bytes as soon as it is final (signed), so a message's records are never held as
   * strings on the heap, where they would outlive a few collections and be promoted, and then as a request too.
   */
  request: Buffer[];
  /** The request as stored with the submission: each signed record by its mark, its bytes kept once in signed_records. */
  storedRequestXml: string;
  records: MessageRecord[];
  /**
   * The sandbox scenario of the message's one record, on a scenario chain: the message goes to the simulator alone,
   * which is told the scenario in a request header, never in the XML.
   */
  scenario?: string;
  /** Records signed for this message, never before: kept (conditionally) in the transaction that opens the submission. */
  signed: NewSignedRecord[];
}

/** What the chain's sender read before a message: its next records, the first one waiting for the user, its taxpayer's certificate. */
export interface MessageInput {
  chainId: string;
  /** Up to 1,000 records scheduled for sending, in chain order. */
  waiting: BatchInvoice[];
  /** The chain's earliest record in `error` waiting for the user: no later record may overtake it. */
  held: { id: string; chainSeq: number } | undefined;
  taxpayerId: string | undefined;
  /** The client certificate to send with, or why there is none. */
  certificate: ClientCertificate | { problem: ServiceCause; reason: string };
  authority: AppConfig['authority'];
  incidentAfterSeconds: number;
  /** Sign records that were never signed (SIGN_RECORDS). Records signed before go with their signature either way. */
  signRecords: boolean;
  /** The certificate's sends are stopped (the authority suspended its access): nothing goes until an operator resumes. */
  stopped?: { code: number; since: Date };
  now: Date;
}

/** What to do next: records that cannot go (to be marked `error` before anything is sent) and the message, if any. */
export interface MessagePlan {
  failed: InvoiceOutcome[];
  message: PreparedMessage | undefined;
}

/** An `error` that waits for the user: nothing is planned until the cause is fixed or the invoice is resent. */
function failure(invoiceId: string, cause: ServiceCause, reason: string): InvoiceOutcome {
  return recordOutcome.needsAttention(invoiceId, { cause, why: reason, note: `error before sending: ${reason}` });
}

// Records go in generation order: a later record never overtakes an earlier one that cannot go.
function heldBehind(rows: BatchInvoice[], earlier: { id: string }): InvoiceOutcome[] {
  return rows.map((r) =>
    failure(r.id, 'waiting_for_earlier_record', `waiting for the earlier record ${earlier.id}, which needs attention`),
  );
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

type WrittenRecord = { record: ChainRecord; xml: string; signNow: boolean } | { cause: ServiceCause; reason: string };

/**
 * One record as it goes: rebuilt from its row and proven by its huella (never re-hashed), written as a standalone
 * canonical element, then either the signed bytes stored the first time it was signed (which must carry exactly
 * this record), or to be signed now with the certificate the message goes with, or, with signing off, as written.
 */
function writeRecord(row: BatchInvoice, input: MessageInput): WrittenRecord {
  let record: ChainRecord;
  try {
    record = rebuildChainRecord(row);
  } catch (err) {
    return { cause: 'record_mismatch', reason: describe(err) };
  }
  let xml: string;
  try {
    xml = buildRecordXml(record);
  } catch (err) {
    return { cause: 'record_unwritable', reason: `the record cannot be written as XML: ${describe(err)}` };
  }
  if (row.signedXml !== null) {
    if (!isSignatureOf(row.signedXml, xml)) {
      return { cause: 'record_mismatch', reason: 'the stored signed record is not the record rebuilt from the database; it was not sent' };
    }
    return { record, xml: row.signedXml, signNow: false };
  }
  return { record, xml, signNow: input.signRecords };
}

/**
 * Signatures in progress at once: two per core keep every core's thread-pool thread fed while this thread writes the
 * next records, and stay within libuv's four threads on a small machine, so that the pool's other users (DNS, files)
 * wait for at most a few signatures.
 */
const SIGNING_WINDOW = Math.min(4, Math.max(2, availableParallelism() * 2));

/**
 * Signs records on the thread pool (signRecordAsync), at most `size` at a time: `add` starts a signature once there is
 * room, `signed` waits for all of them. The first failure is kept and thrown by `signed`, after the others have ended.
 */
class SigningWindow {
  private readonly inFlight = new Set<Promise<void>>();
  private failure: unknown;

  constructor(
    private readonly identity: SigningIdentity,
    private readonly size = SIGNING_WINDOW,
  ) {}

  async add(record: string, options: SignOptions, done: (signed: string) => void): Promise<void> {
    while (this.inFlight.size >= this.size) await Promise.race(this.inFlight);
    const signing: Promise<void> = signRecordAsync(record, this.identity, options).then(done, (err: unknown) => {
      this.failure ??= err;
    });
    const tracked = signing.finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
  }

  async signed(): Promise<void> {
    await Promise.all(this.inFlight);
    if (this.failure !== undefined) throw this.failure;
  }
}

/**
 * The next message of a chain, decided from what its sender read (pure: no clock, no I/O): each record rebuilt from its
 * stored row and its huella proven (a record is never re-hashed), signed once (writeRecord; the RSA work on the thread
 * pool while the next records are written), in chain order, stopping before anything that cannot go, with
 * Incidencia=S once the message is late. One chain is one NIF in one environment, so the message carries one
 * ObligadoEmision and goes to one endpoint.
 */
export async function planMessage(input: MessageInput): Promise<MessagePlan> {
  const { held, certificate } = input;
  const blocked = held ? input.waiting.filter((i) => i.chainSeq > held.chainSeq) : [];
  const batch = held ? input.waiting.filter((i) => i.chainSeq < held.chainSeq) : input.waiting;
  const waiting = held ? heldBehind(blocked, held) : [];
  if (batch.length === 0) return { failed: waiting, message: undefined };
  if (!input.taxpayerId)
    return {
      failed: [...batch, ...blocked].map((i) => failure(i.id, 'taxpayer_missing', 'the taxpayer no longer exists')),
      message: undefined,
    };
  if ('problem' in certificate)
    return { failed: [...batch, ...blocked].map((i) => failure(i.id, certificate.problem, certificate.reason)), message: undefined };
  if (input.stopped) {
    const reason = `sending under ${certificate.subject} is stopped since ${input.stopped.since.toISOString()}: the authority suspended its access (${input.stopped.code}); an operator must resume it`;
    return { failed: [...batch, ...blocked].map((i) => failure(i.id, 'sender_stopped', reason)), message: undefined };
  }

  const failed: InvoiceOutcome[] = [...waiting];
  const records: MessageRecord[] = [];
  const recordBytes: Buffer[] = [];
  const signedNow: number[] = [];
  /** Whether each record's bytes are in signed_records once the submission is opened (signed before, or now). */
  const kept: boolean[] = [];
  const signing = new SigningWindow(certificate.signer);
  for (const [index, row] of batch.entries()) {
    const written = writeRecord(row, input);
    if ('cause' in written) {
      failed.push(failure(row.id, written.cause, written.reason), ...heldBehind(batch.slice(index + 1), row));
      break;
    }
    records.push({ invoiceId: row.id, record: written.record });
    kept.push(row.signedXml !== null || written.signNow);
    if (written.signNow) {
      signedNow.push(index);
      await signing.add(written.xml, { at: input.now, id: `xmldsig-${row.id}` }, (xml) => (recordBytes[index] = Buffer.from(xml)));
    } else recordBytes[index] = Buffer.from(written.xml);
  }
  await signing.signed();
  if (records.length === 0) return { failed, message: undefined };
  const first = batch[0];
  const lateBefore = input.now.getTime() - input.incidentAfterSeconds * 1000;
  const going = batch.slice(0, records.length);
  // Incidencia = S once delayed: a record older than the tolerance, or one that an earlier attempt already carried.
  const incident = going.some((i) => i.sendAttempts > 0 || i.generatedAt.getTime() < lateBefore);
  const header: SubmissionHeader = { obligado: { name: first.issuerName, nif: first.issuerNif }, incident };
  const scenario = first.sandboxScenario ?? undefined;
  const frame = regFactuRequestFrame(header);
  const stored = recordBytes.flatMap((bytes, i) => [
    frame.open,
    kept[i] ? signedRecordMark(records[i].invoiceId) : bytes.toString(),
    frame.close,
  ]);
  const [head, open, close, tail] = [frame.head, frame.open, frame.close, frame.tail].map((part) => Buffer.from(part));
  // Each record signed now is kept as the very bytes that go, proven against the row they were written from.
  const signed: NewSignedRecord[] = signedNow.map((i) => ({ invoiceId: batch[i].id, xml: recordBytes[i], row: batch[i] }));
  return {
    failed,
    message: {
      chainId: input.chainId,
      taxpayerId: input.taxpayerId,
      endpoint: scenario !== undefined ? selectScenarioEndpoint(input.authority) : selectEndpoint(input.authority, first.isProduction),
      certificate,
      incident,
      obligado: header.obligado,
      request: [head, ...recordBytes.flatMap((bytes) => [open, bytes, close]), tail],
      storedRequestXml: [frame.head, ...stored, frame.tail].join(''),
      records,
      ...(scenario !== undefined && { scenario }),
      signed,
    },
  };
}
