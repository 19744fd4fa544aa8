import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BodyTooLargeError, JSON_TYPE, readBody, send, sleep } from '../http-io';
import type { SimulatorContext } from '../simulator-context';
import { VIES_COUNTRY_CODES } from '@vf/core';
import { answerVies } from './vies-answer';

/** Where VIES's REST API answers, as on the European Commission's host. */
export const VIES_BASE_PATH = '/taxation_customs/vies/rest-api';

async function checkVatNumber(ctx: SimulatorContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  ctx.counters.viesRequests += 1;
  let question: unknown;
  try {
    question = JSON.parse(await readBody(req, 64 * 1024));
  } catch (error) {
    if (!(error instanceof SyntaxError) && !(error instanceof BodyTooLargeError)) throw error;
    question = {};
  }
  const reply = answerVies((question ?? {}) as object, ctx.now(), () => `WAPI${String(ctx.counters.viesRequests).padStart(12, '0')}`);
  await sleep(ctx.behaviour.latencyMs);
  send(res, reply.status, JSON_TYPE, JSON.stringify(reply.body));
}

function handler(ctx: SimulatorContext) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://vies').pathname;
    try {
      if (path === `${VIES_BASE_PATH}/check-vat-number` && req.method === 'POST') return await checkVatNumber(ctx, req, res);
      if (path === `${VIES_BASE_PATH}/check-status` && req.method === 'GET') {
        const countries = [...VIES_COUNTRY_CODES].map((countryCode) => ({ countryCode, availability: 'Available' }));
        return send(res, 200, JSON_TYPE, JSON.stringify({ vow: { available: true }, countries }));
      }
      send(res, 404, JSON_TYPE, JSON.stringify({ actionSucceed: false, errorWrappers: [{ error: 'NOT_FOUND' }] }));
    } catch (error) {
      ctx.log(`VIES internal error: ${(error as Error).stack ?? error}`);
      if (!res.headersSent) send(res, 500, JSON_TYPE, JSON.stringify({ actionSucceed: false, errorWrappers: [{ error: 'VOW-ERR-1' }] }));
    }
  };
}

/**
 * The VIES stand-in: plain HTTP (VIES asks no client certificate; the stand-in serves this machine, or a private
 * network, never the public), the REST API's check of one number and its status page.
 */
export async function listenVies(ctx: SimulatorContext, host: string, port: number): Promise<{ server: Server; port: number }> {
  const serve = handler(ctx);
  const server = createServer((req, res) => void serve(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return { server, port: (server.address() as AddressInfo).port };
}
