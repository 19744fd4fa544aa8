import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { buildSoapFault } from '@vf/xml';
import { adminRoute, type SimulatorControl } from './admin-routes';
import { certificateHolderNif } from './client-certificate';
import { faultFires } from './fault-injection';
import { BodyTooLargeError, HTML, readBody, send, sleep, XML } from './http-io';
import type { EnvironmentState, SimulatorContext } from './simulator-context';
import { dispatchSoap } from './soap-dispatch';
import { clientFault } from './soap-outcome';
import { ENDPOINT_PATH, PRODUCTION_PREFIX, STATIC_PATH } from './simulator-types';

const MAX_BODY_BYTES = 32 * 1024 * 1024;

async function soapPost(ctx: SimulatorContext, env: EnvironmentState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { counters, behaviour } = ctx;
  counters.requests += 1;
  if (faultFires(behaviour, 'connectionReset')) {
    counters.faults.connectionReset += 1;
    req.socket.destroy();
    return;
  }
  if (faultFires(behaviour, 'http503')) {
    counters.faults.http503 += 1;
    await sleep(behaviour.latencyMs);
    res.setHeader('Retry-After', '30');
    send(res, 503, HTML, '<html><body><h1>503 Service Unavailable</h1></body></html>');
    return;
  }
  if (faultFires(behaviour, 'http500')) {
    counters.faults.http500 += 1;
    await sleep(behaviour.latencyMs);
    send(res, 500, HTML, '<html><body><h1>500 Internal Server Error</h1></body></html>');
    return;
  }
  if (faultFires(behaviour, 'serverFault')) {
    counters.faults.serverFault += 1;
    await sleep(behaviour.latencyMs);
    send(res, 500, XML, buildSoapFault({ side: 'server', code: 20009, message: 'Error interno en el servidor' }));
    return;
  }

  let xml: string;
  try {
    xml = await readBody(req, MAX_BODY_BYTES);
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error;
    send(res, 500, XML, clientFault(4114).body);
    return;
  }
  const outcome = await dispatchSoap(ctx, env, xml, certificateHolderNif(req.socket as TLSSocket));
  await sleep(behaviour.latencyMs);
  if (faultFires(behaviour, 'replyLost')) {
    counters.faults.replyLost += 1;
    req.socket.destroy();
    return;
  }
  send(res, outcome.status, XML, outcome.body);
}

export function createRouter(ctx: SimulatorContext, control: SimulatorControl, staticFiles: () => Map<string, string>) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      const path = new URL(req.url ?? '/', 'https://simulator').pathname;
      const env =
        path === ENDPOINT_PATH
          ? ctx.environments.sandbox
          : path === `${PRODUCTION_PREFIX}${ENDPOINT_PATH}`
            ? ctx.environments.production
            : undefined;
      if (env) {
        if (req.method === 'POST') return await soapPost(ctx, env, req, res);
        send(res, 500, XML, clientFault(4135).body);
        return;
      }
      if (path.startsWith(`${STATIC_PATH}/`) && req.method === 'GET') {
        const file = staticFiles().get(path.slice(STATIC_PATH.length + 1));
        if (file !== undefined) return send(res, 200, XML, file);
      }
      if (await adminRoute(ctx, control, path, req, res)) return;
      send(res, 404, HTML, '<html><body><h1>404 Not Found</h1></body></html>');
    } catch (error) {
      ctx.log(`internal error: ${(error as Error).stack ?? error}`);
      if (!res.headersSent) send(res, 500, HTML, '<html><body><h1>500 Internal Server Error</h1></body></html>');
      else res.destroy();
    }
  };
}
