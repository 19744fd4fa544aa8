import { request as httpRequest, type Agent, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { parseConsultaReply, parseRegFactuReply, type ConsultaResponse, type SoapFault, type SubmissionResponse } from '@vf/xml';

export type SoapOperation = 'RegFactuSistemaFacturacion' | 'ConsultaFactuSistemaFacturacion';

/** Each operation's SOAPAction as the vendored WSDL's binding declares it (AEAT's are empty; a test compares). */
export const SOAP_ACTIONS: Record<SoapOperation, string> = {
  RegFactuSistemaFacturacion: '',
  ConsultaFactuSistemaFacturacion: '',
};

export interface SoapTransportOptions {
  timeoutMs: number;
}

/**
 * Sends an already-built SOAP envelope over mutual TLS and hands back the raw exchange, read once by `readAnswer`. The
 * envelope is all there is to a SOAP call here, so no SOAP client library is involved: the `soap` package, with the
 * service description it parsed and its HTTP stack, held about 5 MB of the worker's heap for a header.
 */
export class SoapTransport {
  constructor(private readonly opts: SoapTransportOptions) {}

  /**
   * `request`: the envelope's text (sent as UTF-8), its bytes, or its bytes in parts. `headers`: extra request headers,
   * only ever for the simulator (the sandbox scenario a record goes under; see selectScenarioEndpoint).
   */
  send(
    operation: SoapOperation,
    endpoint: string,
    agent: Agent,
    request: string | Buffer | readonly Buffer[],
    headers?: Record<string, string>,
  ): Promise<SoapExchange> {
    return postSoapEnvelope(endpoint, request, {
      agent,
      timeoutMs: this.opts.timeoutMs,
      soapAction: SOAP_ACTIONS[operation],
      ...(headers && { headers }),
    });
  }
}

/** What came back over the wire, uninterpreted: an HTTP answer (any status), or no answer at all. */
export type SoapExchange =
  | {
      kind: 'http';
      status: number;
      body: string;
      /** The answer's `Date` header (the authority's clock), when it had one. */
      date?: string;
    }
  | { kind: 'no_answer'; error: string };

export interface SoapPostOptions {
  /** The connection's agent: over mutual TLS, the client certificate the message goes with. */
  agent?: Agent;
  /** The whole exchange, connecting included: past it the request is abandoned and counts as unanswered. */
  timeoutMs: number;
  /** The operation's SOAPAction as the WSDL declares it (empty for AEAT's); `false` for a request that is not SOAP. */
  soapAction?: string | false;
  /** `text/xml; charset=UTF-8` unless given (VIES's REST API takes JSON). */
  contentType?: string;
  /** Extra request headers (the simulator's Sandbox-Scenario). */
  headers?: Record<string, string>;
}

/**
 * A request goes in slices of about this size, each written once the socket took the last: TLS encrypts what it is
 * handed at once and holds it until the socket takes it, so a message of several megabytes written whole would be held
 * a second time, encrypted, outside the JavaScript heap. A slice costs a turn of the event loop, which a busy or
 * lowered-priority process waits for: a megabyte keeps a 1,000-record message (about 8 MB) to a few turns. Small parts
 * are gathered into one slice (one write, so that TLS makes full records of them).
 */
const SLICE_BYTES = 1024 * 1024;

function describeFailure(err: unknown): string {
  const e = err as { code?: string; message?: string };
  if (e?.code && e.message && !e.message.includes(e.code)) return `${e.code}: ${e.message}`;
  return e?.message ?? e?.code ?? String(err);
}

/**
 * POSTs an already-built SOAP envelope (the audited bytes, sent as they are: its text, its bytes, or its bytes in
 * parts, sent one after the other) and hands back the raw exchange: the answer's text whatever its HTTP status (AEAT
 * may answer a fault with HTTP 500), read once by the caller. Redirects are not followed (they would carry the request
 * elsewhere; AEAT does not redirect).
 */
export function postSoapEnvelope(
  endpoint: string,
  envelope: string | Buffer | readonly Buffer[],
  opts: SoapPostOptions,
): Promise<SoapExchange> {
  const parts = typeof envelope === 'string' ? [Buffer.from(envelope, 'utf8')] : Buffer.isBuffer(envelope) ? [envelope] : envelope;
  let length = 0;
  for (const part of parts) length += part.length;
  const request = new URL(endpoint).protocol === 'http:' ? httpRequest : httpsRequest;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (exchange: SoapExchange) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve(exchange);
    };
    const req = request(
      endpoint,
      {
        method: 'POST',
        agent: opts.agent,
        headers: {
          'Content-Type': opts.contentType ?? 'text/xml; charset=UTF-8',
          'Content-Length': length,
          ...(opts.soapAction !== false && { SOAPAction: `"${opts.soapAction ?? ''}"` }),
          ...opts.headers,
        },
      },
      (res) => gatherAnswer(res, settle),
    );
    const deadline = setTimeout(
      () => req.destroy(Object.assign(new Error(`no answer within ${opts.timeoutMs} ms`), { code: 'ETIMEDOUT' })),
      opts.timeoutMs,
    );
    req.on('error', (err) => settle({ kind: 'no_answer', error: describeFailure(err) }));
    req.on('close', () => settle({ kind: 'no_answer', error: 'the connection closed before the answer ended' }));
    void writeInSlices(req, parts);
  });
}

function gatherAnswer(res: IncomingMessage, settle: (exchange: SoapExchange) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => {
    const { date } = res.headers;
    settle({ kind: 'http', status: res.statusCode!, body: Buffer.concat(chunks).toString('utf8'), ...(date && { date }) });
  });
  res.on('error', (err) => settle({ kind: 'no_answer', error: describeFailure(err) }));
}

async function writeInSlices(req: ClientRequest, parts: readonly Buffer[]): Promise<void> {
  let gathered = 0;
  for (const part of parts) {
    for (let at = 0; at < part.length; at += SLICE_BYTES) {
      if (req.destroyed) return;
      if (gathered === 0) req.cork();
      const slice = part.subarray(at, at + SLICE_BYTES);
      req.write(slice);
      gathered += slice.length;
      if (gathered >= SLICE_BYTES) {
        req.uncork();
        gathered = 0;
        if (req.writableNeedDrain) await drained(req);
      }
    }
  }
  if (gathered > 0) req.uncork();
  if (!req.destroyed) req.end();
}

/** Resolves once the request can take more, or is gone (its error is reported by the request's own listener). */
function drained(req: ClientRequest): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      req.off('drain', done);
      req.off('close', done);
      resolve();
    };
    req.on('drain', done);
    req.on('close', done);
  });
}

/** Where an answer came from over HTTP: its status and its text, kept as they came for the submission's history. */
export interface AnswerHttp {
  httpStatus: number;
  responseXml: string;
}

/**
 * An exchange with the authority, read once:
 * - `no_answer`: nothing came back (no connection, a cut, a timeout): the authority may have processed the request;
 * - `certificate_refused`: HTTP 500 with no body at all, what the authority answers when the certificate's holder is
 *   neither the taxpayer nor empowered to act for it (as integrators reported); nothing was processed;
 * - `unreadable`: an answer that is not the operation's SOAP answer (an HTML page from something in front of the
 *   service, a truncated reply); nothing was processed;
 * - `fault`: a SOAP Fault, whatever the HTTP status;
 * - `reply`: the operation's answer.
 */
export type AuthorityAnswer<T> =
  | { kind: 'no_answer'; error: string }
  | ({ kind: 'certificate_refused' } & AnswerHttp)
  | ({ kind: 'unreadable' } & AnswerHttp)
  | ({ kind: 'fault'; fault: SoapFault } & AnswerHttp)
  | ({ kind: 'reply'; reply: T } & AnswerHttp);

/** Reads an exchange with the parser of the operation's answer (which reads a SOAP Fault too). Never throws. */
export function readAnswer<T extends { kind: string }>(exchange: SoapExchange, parse: (xml: string) => T | SoapFault): AuthorityAnswer<T> {
  if (exchange.kind === 'no_answer') return exchange;
  const http: AnswerHttp = { httpStatus: exchange.status, responseXml: exchange.body };
  if (exchange.status === 500 && exchange.body.trim() === '') return { kind: 'certificate_refused', ...http };
  let parsed: T | SoapFault;
  try {
    parsed = parse(exchange.body);
  } catch {
    return { kind: 'unreadable', ...http };
  }
  return parsed.kind === 'fault' ? { kind: 'fault', fault: parsed as SoapFault, ...http } : { kind: 'reply', reply: parsed as T, ...http };
}

/** The answer to RegFactuSistemaFacturacion. */
export function readRegFactuAnswer(exchange: SoapExchange): AuthorityAnswer<SubmissionResponse> {
  return readAnswer(exchange, parseRegFactuReply);
}

/** The answer to ConsultaFactuSistemaFacturacion. */
export function readConsultaAnswer(exchange: SoapExchange): AuthorityAnswer<ConsultaResponse> {
  return readAnswer(exchange, parseConsultaReply);
}

/** Past this, a clock is too far from the authority's: it stores records more than 240 s off its own clock with 2004. */
export const CLOCK_WARNING_SECONDS = 60;

export interface AuthorityClock {
  /** The authority's clock minus ours, in whole seconds (positive: the authority is ahead). */
  offsetSeconds: number;
  /** Past CLOCK_WARNING_SECONDS: our FechaHoraHusoGenRegistro risks error 2004 until the clock is synchronised. */
  tooFar: boolean;
}

/**
 * The authority's clock against ours, from an answer's `Date` header (whole seconds, so an offset under a second reads
 * as 0 or ±1); undefined when the header is not a date.
 */
export function checkAuthorityClock(dateHeader: string, receivedAt: Date): AuthorityClock | undefined {
  const authority = Date.parse(dateHeader);
  if (Number.isNaN(authority)) return undefined;
  const offsetSeconds = Math.round((authority - receivedAt.getTime()) / 1000);
  return { offsetSeconds, tooFar: Math.abs(offsetSeconds) > CLOCK_WARNING_SECONDS };
}
