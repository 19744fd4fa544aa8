import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { NS } from './namespaces';
import { loadSchemaFiles, type SchemaFileName } from './schema-files';

export type XsdTarget = 'request' | 'response' | 'consulta-request' | 'consulta-response' | 'event';

export interface XsdVerdict {
  valid: boolean;
  errors: string[];
}

/** Beside src/ and dist/ (like the schemas), so the compiled module finds it at the same relative path. */
const XSD_THREAD_FILE = join(__dirname, '..', 'threads', 'xsd-thread.mjs');

const MAIN_SCHEMA: Record<XsdTarget, SchemaFileName> = {
  request: 'SuministroLR.xsd',
  response: 'RespuestaSuministro.xsd',
  'consulta-request': 'ConsultaLR.xsd',
  'consulta-response': 'RespuestaConsultaLR.xsd',
  // A RegistroEvento is kept, never sent: validated as the one element of an envelope's Body, like the messages.
  event: 'EventosSIF.xsd',
};

interface Pending {
  resolve(verdicts: XsdVerdict[]): void;
  reject(error: Error): void;
}

interface XsdThread {
  worker: Worker;
  pending: Map<number, Pending>;
  idle?: NodeJS.Timeout;
}

/** A thread with nothing to do for this long stops; the next validation starts another (a fraction of a second). */
const IDLE_MS = 30_000;

let thread: XsdThread | undefined;
let nextRequest = 0;

/**
 * The process's one validation thread (libxml2 in WASM, no network), started on first use. It compiles each schema
 * once and keeps it, so a message costs milliseconds instead of a fresh schema read; and a 1,000-record message is
 * validated off the event loop. It holds the process open only while a validation is pending, and stops when idle.
 */
function xsdThread(): XsdThread {
  if (thread) return thread;
  const worker = new Worker(XSD_THREAD_FILE, {
    workerData: { schemas: Object.fromEntries(loadSchemaFiles()), soapNamespace: NS.soapenv },
    // The thread needs none of the parent's flags (a test runner's loader, say): it is plain JavaScript.
    execArgv: [],
  });
  const current: XsdThread = { worker, pending: new Map() };
  const fail = (error: Error) => {
    if (thread === current) thread = undefined;
    for (const p of current.pending.values()) p.reject(error);
    current.pending.clear();
  };
  worker.on('message', (answer: { id: number; verdicts?: XsdVerdict[]; failure?: string }) => {
    const p = current.pending.get(answer.id);
    current.pending.delete(answer.id);
    if (current.pending.size === 0) {
      worker.unref();
      current.idle = setTimeout(() => {
        if (thread === current) thread = undefined;
        void worker.terminate();
      }, IDLE_MS).unref();
    }
    if (answer.verdicts) p?.resolve(answer.verdicts);
    else p?.reject(new Error(answer.failure));
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the XSD validation thread stopped (exit code ${code})`)));
  worker.unref();
  thread = current;
  return current;
}

function validateEnvelopes(envelopes: string[], main: SchemaFileName): Promise<XsdVerdict[]> {
  const { worker, pending, idle } = xsdThread();
  clearTimeout(idle);
  const id = ++nextRequest;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.ref();
    worker.postMessage({ id, main, envelopes });
  });
}

/**
 * Validates the payload of a SOAP envelope's Body (its one element) against the vendored AEAT schemas. A text that is
 * not a SOAP envelope is reported as invalid, not thrown.
 */
export async function validateAgainstXsd(xml: string, which: XsdTarget): Promise<XsdVerdict> {
  return (await validateEachAgainstXsd([xml], which))[0];
}

/** validateAgainstXsd for many envelopes at once, each with its own verdict, in one message to the thread. */
export async function validateEachAgainstXsd(xmls: string[], which: XsdTarget): Promise<XsdVerdict[]> {
  return xmls.length === 0 ? [] : validateEnvelopes(xmls, MAIN_SCHEMA[which]);
}
