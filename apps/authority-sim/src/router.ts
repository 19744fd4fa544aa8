import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { adminRoute, type SimulatorControl } from './admin-routes';
import { CENSUS_PATH, censusPost } from './census/census-post';
import { certificateHolderNif } from './client-certificate';
import { increment } from './counters';
import { messageSubject } from './faults/message-subject';
import { injectedFault } from './faults/soap-faults';
import { answerTransportFault, BEFORE_READING } from './faults/transport-faults';
import { BodyTooLargeError, HTML, readBytes, send, sleep, XML } from './http-io';
import { authorityNow, type EnvironmentState, type SimulatorContext } from './simulator-context';
import { dispatchSoap } from './soap-dispatch';
import { logRequest, requestInvoiceNumbers, type LoggedRequest } from './request-log';
import { clientFault, type SoapOutcome } from './soap-outcome';
import { ENDPOINT_PATH, PRODUCTION_PREFIX, REQUIREMENT_PATH, SCENARIO_PREFIX, STATIC_PATH, VALIDATION_PATHS } from './simulator-types';
import { scenarioContext } from './scenarios/scenario-request';
import { FaultBook } from './faults/fault-book';
import { validationPost } from './validation/validation-post';

const MAX_BODY_BYTES = 32 * 1024 * 1024;
/** The kinds that act once the records were processed and stored. */
const AFTER_STORING = ['storedThenFailed', 'replyLost'] as const;
const AFTER_ANSWERING = ['replyLost'] as const;

function answer(res: ServerResponse, outcome: SoapOutcome): void {
  send(res, outcome.status, XML, outcome.body);
}

async function soapPost(shared: SimulatorContext, env: EnvironmentState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { counters, behaviour } = shared;
  counters.requests += 1;
  let bytes: Buffer;
  try {
    bytes = await readBytes(req, MAX_BODY_BYTES);
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error;
    return answer(res, clientFault(4114, '', behaviour.ruleSet));
  }
  const holderNif = certificateHolderNif(req.socket as TLSSocket);
  const text = bytes.toString('latin1');
  const subject = { ...messageSubject(text), certificateNif: holderNif ?? undefined, environment: env.name };
  // The scenario service answers each request as its record's scenario says, with faults of that request alone.
  const scenario = env.name === 'scenarios' ? scenarioContext(shared, req, text, subject) : undefined;
  const ctx = scenario?.ctx ?? shared;
  const logged: LoggedRequest = {
    at: ctx.now().toISOString(),
    environment: env.name,
    ...(subject.operation && { operation: subject.operation }),
    ...(subject.nif && { nif: subject.nif }),
    invoiceNumbers: requestInvoiceNumbers(text, subject.operation),
    answer: 'answered',
  };
  logRequest(ctx.requests, logged);

  const early = ctx.faults.take(BEFORE_READING, subject);
  if (early) {
    counters.faults[early.kind] += 1;
    logged.answer = early.kind === 'soapFault' ? `soapFault ${early.code}` : early.kind;
    if (early.kind !== 'soapFault') return answerTransportFault(early, req, res, behaviour.latencyMs);
    increment(counters.faultCodes, early.code);
    await sleep(behaviour.latencyMs);
    return answer(res, injectedFault(behaviour.ruleSet, early.code, early.httpStatus));
  }

  // Held already when the request meets it, as after a send whose answer was lost.
  if (scenario?.plan.storeFirst) {
    await dispatchSoap({ ...ctx, faults: new FaultBook() }, env, bytes, holderNif);
    // That first processing stands for an earlier send: the one being answered is not early for it.
    if (subject.nif) env.flow.forget(subject.nif);
  }
  const outcome = await dispatchSoap(ctx, env, bytes, holderNif);
  await sleep(behaviour.latencyMs + (scenario?.plan.delayMs ?? 0));
  // Stored-then-failed needs records that were processed: a send the service answered with lines.
  const processed = subject.operation === 'RegFactu' && outcome.faultCode === undefined;
  const late = ctx.faults.take(processed ? AFTER_STORING : AFTER_ANSWERING, subject);
  if (late) {
    counters.faults[late.kind] += 1;
    logged.answer = late.kind;
  }
  if (late?.kind === 'replyLost') {
    req.socket.destroy();
    return;
  }
  if (late?.kind === 'storedThenFailed') {
    // The records were processed and stored; the answer says the server failed (a resend meets 3000).
    const code = late.code ?? 102;
    increment(counters.faultCodes, code);
    return answer(res, injectedFault(behaviour.ruleSet, code, 500));
  }
  answer(res, outcome);
}

/** The registration service a path names: VerifactuSOAP or RequerimientoSOAP, sandbox or under the production prefix; the scenario service. */
function serviceAt(ctx: SimulatorContext, path: string): EnvironmentState | undefined {
  if (path === `${SCENARIO_PREFIX}${ENDPOINT_PATH}`) return ctx.environments.scenarios;
  const production = path.startsWith(`${PRODUCTION_PREFIX}/`);
  const service = production ? path.slice(PRODUCTION_PREFIX.length) : path;
  const services = service === ENDPOINT_PATH ? ctx.environments : service === REQUIREMENT_PATH ? ctx.requirementServices : undefined;
  return services?.[production ? 'production' : 'sandbox'];
}

export function createRouter(ctx: SimulatorContext, control: SimulatorControl, staticFiles: () => Map<string, string>) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      const path = new URL(req.url ?? '/', 'https://simulator').pathname;
      const env = serviceAt(ctx, path);
      if (env) {
        // The authority's clock, as a client comparing clocks reads it.
        res.setHeader('Date', authorityNow(ctx).toUTCString());
        if (req.method === 'POST') return await soapPost(ctx, env, req, res);
        return answer(res, clientFault(4135, '', ctx.behaviour.ruleSet));
      }
      if ((VALIDATION_PATHS as readonly string[]).includes(path)) {
        if (req.method === 'POST') return await validationPost(ctx, req, res);
        return send(res, 405, HTML, '<html><body><h1>405 Method Not Allowed</h1></body></html>');
      }
      if (path === CENSUS_PATH) {
        if (req.method === 'POST') return await censusPost(ctx, req, res);
        return send(res, 405, HTML, '<html><body><h1>405 Method Not Allowed</h1></body></html>');
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
