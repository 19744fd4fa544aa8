import type { IncomingMessage, ServerResponse } from 'node:http';
import { HTML, send, sleep } from '../http-io';
import type { ActiveFault } from './fault-types';

/** The kinds that answer instead of the service, before the message is read. */
export const BEFORE_READING = ['connectionReset', 'hang', 'http503', 'http500', 'http500Empty', 'soapFault'] as const;

/** Past the 600 s that requests to the real service were seen to hang. */
const DEFAULT_HANG_MS = 660_000;

// The outage page of the authority's front end is HTML with this header (as integrators reported); this one says it is a simulator's.
const OUTAGE_PAGE =
  '<html><head><title>503 Service Unavailable</title></head><body><h1>Servicio no disponible</h1>' +
  '<p>Simulador VERI*FACTU: esta respuesta no procede de la AEAT.</p></body></html>';
const ERROR_PAGE = '<html><head><title>500 Internal Server Error</title></head><body><h1>Error interno</h1></body></html>';

/** Holds the request open without a word for `ms`, or until the client gives up, then drops the connection. */
async function hang(req: IncomingMessage, ms: number): Promise<void> {
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    req.socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  req.socket.destroy();
}

/** Answers a transport-level fault (every kind of BEFORE_READING but soapFault). */
export async function answerTransportFault(
  fault: Exclude<ActiveFault, { kind: 'soapFault' }>,
  req: IncomingMessage,
  res: ServerResponse,
  latencyMs: number,
): Promise<void> {
  switch (fault.kind) {
    case 'connectionReset':
      req.socket.destroy();
      return;
    case 'hang':
      return hang(req, fault.ms ?? DEFAULT_HANG_MS);
    case 'http503':
      await sleep(latencyMs);
      return send(res, 503, 'text/html', OUTAGE_PAGE, { 'x-site': 'Sede' });
    case 'http500':
      await sleep(latencyMs);
      return send(res, 500, HTML, ERROR_PAGE);
    case 'http500Empty':
      await sleep(latencyMs);
      res.writeHead(500, { 'Content-Length': 0 });
      res.end();
      return;
    default:
      throw new Error(`${fault.kind} is not a transport fault`);
  }
}
