import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import workerpool from 'workerpool';
import type { SignatureVerdict } from './verify-record-signature';

/** Beside src/ and dist/, so the compiled module and the sources find it at the same relative path. */
const THREAD_FILE = join(__dirname, '..', 'threads', 'verify-signatures.cjs');
/** Records a thread is given at a time: enough to pay for the copy, few enough to keep every thread busy. */
const SLICE = 100;
/** Threads left without work this long stop; the next verification starts them again (about a tenth of a second). */
const IDLE_MS = 5_000;

let pool: workerpool.Pool | undefined;
let idle: NodeJS.Timeout | undefined;
let running = 0;

function threads(): workerpool.Pool {
  clearTimeout(idle);
  pool ??= workerpool.pool(THREAD_FILE, { maxWorkers: availableParallelism(), workerType: 'thread' });
  return pool;
}

function release(): void {
  running -= 1;
  if (running > 0 || !pool) return;
  idle = setTimeout(() => void closeSignaturePool(), IDLE_MS);
  idle.unref();
}

/**
 * Verifies each signed record (verifyRecordSignature, null: no signed record) on a pool of threads, one per core,
 * slices of a page at a time; the verdicts come back in the records' order. The pool starts on first use and
 * stops when idle, so a process that never verifies a chain never holds it.
 */
export async function verifySignatures(xmls: (string | null)[]): Promise<(SignatureVerdict | undefined)[]> {
  if (xmls.every((x) => x === null)) return xmls.map(() => undefined);
  running += 1;
  try {
    const p = threads();
    const slices: Promise<(SignatureVerdict | undefined)[]>[] = [];
    for (let at = 0; at < xmls.length; at += SLICE) slices.push(p.exec('verify', [xmls.slice(at, at + SLICE)]));
    return (await Promise.all(slices)).flat();
  } finally {
    release();
  }
}

/** Stops the pool's threads (a process's shutdown; also done after a while without work). */
export async function closeSignaturePool(): Promise<void> {
  clearTimeout(idle);
  const closing = pool;
  pool = undefined;
  await closing?.terminate();
}
