import { createHash } from 'node:crypto';
import type { Agent } from 'node:http';
import { backOff } from 'exponential-backoff';
import { buildCensusRequest, CENSUS_MAX_ROWS, parseCensusReply, type CensusAnswerRow, type CensusQuestion } from '@vf/xml';
import { postSoapEnvelope, readAnswer } from '../exchange/soap-transport';
import { readResultado, type CensusVerdict } from './census-verdict';

export interface CensusCheckOptions {
  endpoint: string;
  /** The mutual-TLS agent of the certificate the check goes out under. */
  agent: Agent;
  timeoutMs: number;
  /** Rounds in all: a request that failed in transit, and rows answered `NO PROCESADO`, go again in the next (4). */
  attempts?: number;
  /** The wait before the second round; each next one doubles, with jitter (500 ms). */
  firstDelayMs?: number;
}

/** A row's verdict and, as evidence, the SHA-256 (hex) of the request whose answer gave it (or that last went out for it). */
export type CensusOutcome = CensusVerdict & { requestDigest: string };

/** Rows left unanswered after a round: what makes the backoff try another. */
class RowsNotProcessed extends Error {}

const NOT_PROCESSED: CensusVerdict = { result: 'unknown', detail: 'not_processed' };
const keyOf = (q: CensusQuestion) => `${q.nif}\u0000${q.name}`;

/**
 * The requests for these rows: a NIF at most once in each (answers are matched by NIF; one NIF with two names goes
 * in two requests), at most 10,000 rows each.
 */
function requestsFor(rows: readonly CensusQuestion[]): CensusQuestion[][] {
  const waves: CensusQuestion[][] = [];
  const seen = new Map<string, number>();
  for (const row of rows) {
    const wave = seen.get(row.nif) ?? 0;
    seen.set(row.nif, wave + 1);
    (waves[wave] ??= []).push(row);
  }
  return waves.flatMap((wave) =>
    Array.from({ length: Math.ceil(wave.length / CENSUS_MAX_ROWS) }, (_, i) => wave.slice(i * CENSUS_MAX_ROWS, (i + 1) * CENSUS_MAX_ROWS)),
  );
}

/** The answer's rows by NIF; a NIF answered twice with different results is not taken (neither is believed). */
function rowsByNif(rows: readonly CensusAnswerRow[]): Map<string, CensusAnswerRow | undefined> {
  const byNif = new Map<string, CensusAnswerRow | undefined>();
  for (const row of rows) {
    const nif = row.nif.trim();
    if (!byNif.has(nif)) byNif.set(nif, row);
    else if (byNif.get(nif)?.result !== row.result) byNif.set(nif, undefined);
  }
  return byNif;
}

/** One request: its rows' verdicts (`NO PROCESADO` for all when the census did not answer), and whether to ask again. */
async function sendOnce(
  questions: CensusQuestion[],
  opts: CensusCheckOptions,
): Promise<{ digest: string; verdicts: CensusVerdict[]; again: boolean }> {
  const xml = buildCensusRequest(questions);
  const digest = createHash('sha256').update(xml, 'utf8').digest('hex');
  const exchange = await postSoapEnvelope(opts.endpoint, xml, { agent: opts.agent, timeoutMs: opts.timeoutMs, soapAction: '' });
  const answer = readAnswer(exchange, parseCensusReply);
  if (answer.kind !== 'reply') {
    // A client fault says the request itself is wrong: sending it again would not help.
    const again = !(answer.kind === 'fault' && answer.fault.side === 'client');
    return { digest, verdicts: questions.map(() => NOT_PROCESSED), again };
  }
  const byNif = rowsByNif(answer.reply.rows);
  const verdicts = questions.map((q) => {
    const row = byNif.get(q.nif);
    return row ? readResultado(row.result, row.name) : NOT_PROCESSED;
  });
  return { digest, verdicts, again: true };
}

/**
 * Asks the census (VNifV2) about each row, in as few requests as it allows, and answers one outcome per row in the
 * order given. Rows the census did not process, and requests that failed in transit, go again with backoff; what is
 * still unanswered after the last round is `unknown`.
 */
export async function checkCensus(questions: readonly CensusQuestion[], opts: CensusCheckOptions): Promise<CensusOutcome[]> {
  const outcomes = new Map<string, CensusOutcome>();
  let pending = [...new Map(questions.map((q) => [keyOf(q), q])).values()];
  const round = async () => {
    const retry: CensusQuestion[] = [];
    for (const request of requestsFor(pending)) {
      const sent = await sendOnce(request, opts);
      request.forEach((q, i) => {
        const verdict = sent.verdicts[i]!;
        outcomes.set(keyOf(q), { ...verdict, requestDigest: sent.digest });
        if (verdict.detail === 'not_processed' && sent.again) retry.push(q);
      });
    }
    pending = retry;
    if (pending.length > 0) throw new RowsNotProcessed(`${pending.length} rows not processed by the census`);
  };
  await backOff(round, {
    numOfAttempts: opts.attempts ?? 4,
    startingDelay: opts.firstDelayMs ?? 500,
    timeMultiple: 2,
    jitter: 'full',
    retry: (error: unknown) => error instanceof RowsNotProcessed,
  }).catch((error: unknown) => {
    // Rows still unanswered after the last round keep their `unknown` outcome.
    if (!(error instanceof RowsNotProcessed)) throw error;
  });
  return questions.map((q) => outcomes.get(keyOf(q))!);
}
