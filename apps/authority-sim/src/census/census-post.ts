import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  buildCensusResponse,
  buildSoapFault,
  CENSUS_MAX_ROWS,
  parseCensusRequest,
  type CensusAnswerRow,
  type CensusQuestion,
} from '@vf/xml';
import { answerTransportFault, BEFORE_READING } from '../faults/transport-faults';
import { BodyTooLargeError, readBytes, send, sleep, XML } from '../http-io';
import { logRequest, type LoggedRequest } from '../request-log';
import type { TLSSocket } from 'node:tls';
import { certificateHolderNif } from '../client-certificate';
import type { FaultSubject } from '../faults/fault-types';
import type { SimulatorContext } from '../simulator-context';
import { answerCensusRow, RESULTADO } from './census-answer';
import type { CensusBook } from './census-book';

/** Where the census check (VNifV2) answers, as on the authority's hosts. */
export const CENSUS_PATH = '/wlpl/BURT-JDIT/ws/VNifV2SOAP';

const MAX_BODY_BYTES = 8 * 1024 * 1024;
const OPERATION = 'VNifV2' as const;

function fault(res: ServerResponse, side: 'client' | 'server', message: string): void {
  send(res, 500, XML, buildSoapFault({ side, message }));
}

/** The census's rows, with the per-row and whole-answer quirks switched on. */
function answerRows(
  ctx: SimulatorContext,
  census: CensusBook,
  questions: readonly CensusQuestion[],
  subject: FaultSubject,
): CensusAnswerRow[] {
  const rows = questions.map((question) => {
    const notProcessed = ctx.faults.take(['censusNotProcessed'], { ...subject, nif: question.nif });
    if (!notProcessed) return answerCensusRow(question, census.get(question.nif), ctx.unknownNifs);
    ctx.counters.faults.censusNotProcessed += 1;
    return { nif: question.nif, name: question.name, result: RESULTADO.notProcessed };
  });
  // Seen on the real service: some NIFs of a large batch come back twice, with the same result.
  if (ctx.faults.take(['censusRepeatedRows'], subject)) {
    ctx.counters.faults.censusRepeatedRows += 1;
    return rows.flatMap((row, i) => (i % 3 === 0 ? [row, { ...row }] : [row]));
  }
  return rows;
}

/** One POST to the census check: faults before reading, then the answer of each row. Only one service: production. */
export async function censusPost(ctx: SimulatorContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  ctx.counters.requests += 1;
  ctx.counters.censusRequests += 1;
  const logged: LoggedRequest = {
    at: ctx.now().toISOString(),
    environment: 'production',
    operation: OPERATION,
    invoiceNumbers: [],
    answer: 'answered',
  };
  logRequest(ctx.requests, logged);
  let bytes: Buffer;
  try {
    bytes = await readBytes(req, MAX_BODY_BYTES);
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error;
    return fault(res, 'client', 'El mensaje excede el tamaño máximo');
  }
  const holderNif = certificateHolderNif(req.socket as TLSSocket);
  const subject: FaultSubject = { environment: 'production', operation: OPERATION, ...(holderNif && { certificateNif: holderNif }) };
  const early = ctx.faults.take(BEFORE_READING, subject);
  if (early) {
    ctx.counters.faults[early.kind] += 1;
    logged.answer = early.kind;
    if (early.kind !== 'soapFault') return answerTransportFault(early, req, res, ctx.behaviour.latencyMs);
    await sleep(ctx.behaviour.latencyMs);
    return fault(res, 'server', `Codigo[${early.code}].Error interno`);
  }
  let questions: CensusQuestion[] = [];
  try {
    questions = parseCensusRequest(bytes.toString('utf8'));
  } catch {
    // Answered below as a message without rows.
  }
  if (questions.length === 0 || questions.length > CENSUS_MAX_ROWS) {
    logged.answer = 'clientFault';
    return fault(res, 'client', `Se esperaban de 1 a ${CENSUS_MAX_ROWS} elementos Contribuyente en VNifV2Ent`);
  }
  const rows = answerRows(ctx, ctx.census, questions, subject);
  await sleep(ctx.behaviour.latencyMs);
  send(res, 200, XML, buildCensusResponse(rows));
}
