import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import workerpool from 'workerpool';
import type { SignedRecordParts, StoredChainRecord } from '@vf/db';
import type { SignatureVerdict } from '@vf/signing/verify-record-signature';

/** Beside src/ and dist/, so the compiled module and the sources find it at the same relative path. */
const THREAD_FILE = join(__dirname, '..', '..', 'threads', 'verify-signatures.cjs');
/** Records a thread is given at a time: enough to pay for the copy, few enough to keep every thread busy. */
const SLICE = 100;
/** Threads left without work this long stop; the next verification starts them again (about a tenth of a second). */
const IDLE_MS = 5_000;

let pool: workerpool.Pool | undefined;
let idle: NodeJS.Timeout | undefined;
let running = 0;

function threads(): workerpool.Pool {
  clearTimeout(idle);
  pool ??= workerpool.pool(THREAD_FILE, {
    maxWorkers: availableParallelism(),
    workerType: 'thread',
    // The threads run the compiled packages and need none of the parent's flags (a test runner's loader, say).
    workerThreadOpts: { execArgv: [] },
  });
  return pool;
}

function release(): void {
  running -= 1;
  if (running > 0 || !pool) return;
  idle = setTimeout(() => void closeSignaturePool(), IDLE_MS);
  idle.unref();
}

/** The task's items in slices (each as `pack` sends it), on the pool's threads; the answers in the items' order. */
async function onThreads<T, R>(task: string, items: T[], pack: (slice: T[]) => unknown = (slice) => slice): Promise<R[]> {
  running += 1;
  try {
    const p = threads();
    const slices: Promise<R[]>[] = [];
    for (let at = 0; at < items.length; at += SLICE) slices.push(p.exec(task, [pack(items.slice(at, at + SLICE))]));
    return (await Promise.all(slices)).flat();
  } finally {
    release();
  }
}

/**
 * Verifies each signed record (verifyRecordSignature, null: no signed record) on a pool of threads, one per core,
 * slices of a page at a time; the verdicts come back in the records' order. The pool starts on first use and
 * stops when idle, so a process that never verifies a chain never holds it.
 */
export async function verifySignatures(xmls: (string | null)[]): Promise<(SignatureVerdict | undefined)[]> {
  if (xmls.every((x) => x === null)) return xmls.map(() => undefined);
  return onThreads('verify', xmls);
}

/** A signature kept as its parts (decision 0064), with the row its record is written from. */
export interface KeptSignature {
  form: number;
  row: StoredChainRecord;
  parts: SignedRecordParts;
}

/** A slice of kept signatures as it crosses to a thread: each certificate's texts once, each record naming its signer's. */
interface KeptSlice {
  signers: Pick<SignedRecordParts, 'certificate' | 'signingCertificate'>[];
  items: { form: number; row: StoredChainRecord; parts: Omit<SignedRecordParts, 'certificate' | 'signingCertificate'>; signer: number }[];
}

/**
 * The slice with its signers' certificate and SigningCertificate (two kilobytes of text a record, the same for
 * all the records one certificate signed) copied to the thread once, not once a record.
 */
function keptSlice(kept: KeptSignature[]): KeptSlice {
  const signers: KeptSlice['signers'] = [];
  const known = new Map<string, Map<string, number>>();
  const items = kept.map(({ form, row, parts: { certificate, signingCertificate, ...parts } }) => {
    let bySigningCertificate = known.get(certificate);
    if (!bySigningCertificate) known.set(certificate, (bySigningCertificate = new Map()));
    let signer = bySigningCertificate.get(signingCertificate);
    if (signer === undefined) {
      signer = signers.push({ certificate, signingCertificate }) - 1;
      bySigningCertificate.set(signingCertificate, signer);
    }
    return { form, row, parts, signer };
  });
  return { signers, items };
}

/**
 * Verifies signatures kept as parts on the same threads: each record's SignedInfo written from its row and parts (its
 * XML and digests, the costly part), then the RSA check (verifySignatureFromParts).
 */
export async function verifyKeptSignatures(kept: KeptSignature[]): Promise<SignatureVerdict[]> {
  if (kept.length === 0) return [];
  return onThreads('verifyParts', kept, keptSlice);
}

/** Stops the pool's threads (a process's shutdown; also done after a while without work). */
export async function closeSignaturePool(): Promise<void> {
  clearTimeout(idle);
  const closing = pool;
  pool = undefined;
  await closing?.terminate();
}
