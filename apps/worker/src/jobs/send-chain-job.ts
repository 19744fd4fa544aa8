import { randomUUID } from 'node:crypto';
import { DelayedError, type Job } from 'bullmq';
import pLimit from 'p-limit';
import type { Logger } from 'pino';
import { CertificateUnusableError, type ClientCertificates, type SoapTransport } from '@vf/authority-client';
import type { AppConfig } from '@vf/config';
import {
  FULL_BATCH,
  senderStopStore,
  senderTaxpayerStore,
  sendStateStore,
  SignedRecordConflictError,
  submissionBatchStore,
  submissionRecordStore,
  type Db,
  type InvoiceOutcome,
  type OpenedSubmission,
} from '@vf/db';
import type { SubmissionJobData } from '@vf/queue';
import { SendLease } from '../lease/send-lease';
import { recordClockOffset, recordSend, recordSenderStop } from '../metrics/send-metrics';
import { failedSend, judgeAnswer } from '../sending/judge-answer';
import { consultaRequestFor, heldRecordIn, judgeHeldRecord } from '../sending/judge-held-record';
import { planMessage, type MessageInput } from '../sending/plan-message';
import type { RecordVerdict, SentRecord, Verdict } from '../sending/verdict';
import { openSubmission, type OpenMessage } from './open-submission';
import { sendWhileAllowed, type Step } from './send-while-allowed';
import { settleVerdict } from './settle-verdict';
import { scenarioHeaders, scenarioTiming } from '../sending/scenario-timing';

/** Floor for a job's next look, so a job never spins. */
const MIN_WAKE_MS = 100;
/** After an unexpected failure (database unreachable, a bug), look again after this long rather than fail the job. */
const AFTER_FAILURE_MS = 5_000;
/** While shutting down: hand the job back quickly so another process takes it. */
const WHILE_STOPPING_MS = 1_000;
/** A message of more records than this is large: its records, signatures and request take megabytes until it settles. */
const LARGE_MESSAGE = 100;
/**
 * Large messages a process reads, signs and stores at once, whatever its concurrency: a drain of 8 chains of 500
 * records had one process read and sign all of them at once (over 330 MB). Two keep the signing threads busy.
 */
const LARGE_MESSAGES_AT_ONCE = 2;

export interface SendChainJobDeps {
  db: Db;
  config: Pick<AppConfig, 'authority' | 'sender'>;
  certificates: ClientCertificates;
  /** What sandbox scenario records go with (to the simulator beside the service); by default `certificates`. */
  scenarioCertificates?: ClientCertificates;
  transport: SoapTransport;
  logger: Logger;
  workerId: string;
  leaseTtlMs: number;
  /** True once shutdown began: finish the message in hand, start no other. */
  stopping: () => boolean;
  now?: () => Date;
  random?: () => number;
}

/** `idle`: the chain has nothing the workers send on their own; the job ends (see the worker's completed handler). */
export type SendChainJobResult = { chain: 'idle' };

/** The job's dependencies, its clock settled. */
type JobContext = SendChainJobDeps & { now: () => Date };

/**
 * The job of one chain (docs/decisions/0009-one-queue-job-per-chain.md), and with the steps beside it in `jobs/` the
 * one place where its I/O happens: the lease, the reads, the exchanges with the authority and the writes. What to send, what an answer means and what
 * to ask next are decided by the pure functions of `sending/`. Each run becomes the chain's sender and sends message
 * after message while flow control allows, or sleeps until a send could be allowed; it ends when nothing is left.
 */
export function createSendChainJob(deps: SendChainJobDeps) {
  const ctx: JobContext = { ...deps, now: deps.now ?? (() => new Date()) };
  const { db, logger } = ctx;
  const largeMessages = pLimit(LARGE_MESSAGES_AT_ONCE);

  async function run(job: Job<SubmissionJobData>, token: string | undefined): Promise<SendChainJobResult> {
    const { chainId } = job.data;
    if (deps.stopping()) return sleepUntil(job, token, Date.now() + WHILE_STOPPING_MS);
    const timing = { ttlMs: deps.leaseTtlMs, firstWaitSeconds: deps.config.sender.firstWaitSeconds };
    const taken = await SendLease.take(db, chainId, `${deps.workerId}/${randomUUID()}`, timing, (err) =>
      logger.warn({ err, chainId }, 'lease renewal failed'),
    );
    const ended = 'lease' in taken ? await sendWhileAllowed(taken.lease, sendNext, ctx) : undefined;
    if (ended) return ended.waiting ? sleepUntil(job, token, ended.nextSendAt.getTime()) : { chain: 'idle' };
    if (!(await submissionBatchStore.chainHasWork(db, chainId))) return { chain: 'idle' };
    if ('retryAt' in taken) return sleepUntil(job, token, taken.retryAt.getTime());
    const state = await sendStateStore.get(db, chainId);
    return sleepUntil(job, token, state?.nextSendAt.getTime() ?? Date.now());
  }

  /**
   * A large message takes its turn before its records are read and gives it back once it is stored, as it goes: what a
   * process holds while reading and signing stays that of two messages, and the next one is signed while the last
   * waits for its answer.
   */
  async function sendNext(lease: SendLease): Promise<Step> {
    const waiting = await submissionBatchStore.countWaiting(db, lease.chainId, LARGE_MESSAGE + 1);
    const ready = waiting > LARGE_MESSAGE ? await largeMessages(() => prepare(ctx, lease)) : await prepare(ctx, lease);
    return 'step' in ready ? ready.step : send(ctx, lease, ready.message, ready.opened);
  }

  return async function sendChainJob(job: Job<SubmissionJobData>, token?: string): Promise<SendChainJobResult> {
    try {
      return await run(job, token);
    } catch (err) {
      if (err instanceof DelayedError) throw err;
      logger.error({ err, chainId: job.data.chainId }, 'submission attempt failed; will look again');
      return sleepUntil(job, token, Date.now() + AFTER_FAILURE_MS);
    }
  };
}

async function sleepUntil(job: Job<SubmissionJobData>, token: string | undefined, at: number): Promise<never> {
  const readyAt = Math.max(at, Date.now() + MIN_WAKE_MS);
  await job.updateData({ ...job.data, readyAt });
  await job.moveToDelayed(readyAt, token);
  throw new DelayedError();
}

/**
 * The next message read, planned, signed and its submission opened (committed before anything goes); or, when none
 * went, what happened instead. Its signatures are stored in that transaction: a crash before it commits signs again
 * next time, and nothing was sent.
 */
async function prepare(ctx: JobContext, lease: SendLease): Promise<{ step: Step } | { message: OpenMessage; opened: OpenedSubmission }> {
  const { chainId } = lease;
  const { logger } = ctx;
  const plan = await planMessage(await readMessageInput(ctx, chainId));
  if (plan.failed.length > 0) {
    await lease.fenced((tx) => submissionRecordStore.applyInvoiceOutcomes(tx, plan.failed, null));
    logger.warn({ chainId, count: plan.failed.length, reason: plan.failed[0].lastError }, 'records marked error before sending');
  }
  if (!plan.message) return { step: plan.failed.length > 0 ? 'not_sent' : 'nothing_waiting' };
  // The signed strings are not kept past their storing: the request's bytes carry them.
  const { signed, ...message } = plan.message;
  const sender = { workerId: ctx.workerId, requestTimeoutMs: ctx.config.authority.requestTimeoutMs };
  try {
    return { message, opened: await lease.fenced((tx) => openSubmission(tx, message, signed, sender)) };
  } catch (err) {
    // Another signature of one of these records is stored (only a sender that lost its lease could have written it):
    // nothing was written or sent; the next pass builds the message from the stored signatures.
    if (!(err instanceof SignedRecordConflictError)) throw err;
    logger.warn({ chainId, invoiceIds: err.invoiceIds.slice(0, 10) }, err.message);
    return { step: 'not_sent' };
  }
}

async function readMessageInput(ctx: JobContext, chainId: string): Promise<MessageInput> {
  const { db } = ctx;
  const [loaded, held] = await Promise.all([
    submissionBatchStore.load(db, chainId, FULL_BATCH),
    submissionBatchStore.firstHeldRecord(db, chainId),
  ]);
  // A scenario chain's records go one to a message, each answered as its own scenario says (decision 0041).
  const scenario = loaded[0]?.sandboxScenario != null;
  const waiting = scenario ? loaded.slice(0, 1) : loaded;
  const taxpayer = waiting.length > 0 ? await senderTaxpayerStore.forChain(db, chainId) : undefined;
  let certificate: MessageInput['certificate'] = { problem: 'taxpayer_missing', reason: 'the taxpayer no longer exists' };
  if (taxpayer) {
    try {
      certificate = (scenario ? (ctx.scenarioCertificates ?? ctx.certificates) : ctx.certificates).forTaxpayer(taxpayer);
    } catch (err) {
      if (!(err instanceof CertificateUnusableError)) throw err;
      certificate = { problem: err.problem, reason: err.message };
    }
  }
  // The authority's stop of a certificate holds its real records; a scenario record never reaches the authority.
  const stop = 'problem' in certificate || scenario ? undefined : await senderStopStore.find(db, certificate.fingerprint);
  const { authority, sender } = ctx.config;
  return {
    ...(stop && { stopped: { code: stop.code, since: stop.stoppedAt } }),
    chainId,
    waiting,
    held,
    taxpayerId: taxpayer?.id,
    certificate,
    authority,
    incidentAfterSeconds: sender.incidentAfterSeconds,
    signRecords: sender.signRecords,
    now: ctx.now(),
  };
}

/** Sends an opened message, asks the Consulta service what the answer left open, and records each outcome. */
async function send(ctx: JobContext, lease: SendLease, message: OpenMessage, opened: OpenedSubmission): Promise<Verdict> {
  const { chainId } = message;
  const { logger } = ctx;
  const sent: SentRecord[] = message.records
    .filter((r) => opened.attempts.has(r.invoiceId))
    .map((r) => ({ invoiceId: r.invoiceId, record: r.record, attempt: opened.attempts.get(r.invoiceId)! }));
  logger.info({ chainId, submissionId: opened.submissionId, records: sent.length, incident: message.incident }, 'sending message');

  const startedAt = performance.now();
  let answeredAt: number | undefined;
  let verdict: Verdict;
  try {
    const exchange = await ctx.transport.send(
      'RegFactuSistemaFacturacion',
      message.endpoint,
      message.certificate.agent,
      message.request,
      scenarioHeaders(message),
    );
    answeredAt = performance.now();
    // The simulator's clock says nothing of the authority's.
    if (exchange.kind === 'http' && exchange.date && message.scenario === undefined)
      recordClockOffset(logger, exchange.date, ctx.now(), chainId);
    verdict = await askAboutOpenRecords(ctx.transport, judgeAnswer(exchange, sent), message);
  } catch (err) {
    // Whatever failed here, the records are `sent` and counted: they take the retry path with its backoff, never a tight loop.
    logger.error({ err, chainId, submissionId: opened.submissionId }, 'sending failed unexpectedly');
    verdict = failedSend(sent, `could not send: ${err instanceof Error ? err.message : String(err)}`);
  }

  const sender = message.scenario !== undefined ? scenarioTiming(ctx.config.sender) : ctx.config.sender;
  const settled = await settleVerdict(lease, verdict, message, opened, { sender, now: ctx.now, random: ctx.random });
  recordSend(verdict, settled, ((answeredAt ?? performance.now()) - startedAt) / 1000, message.scenario !== undefined);
  if (verdict.stop) recordSenderStop(logger, { chainId, certificate: message.certificate, ...verdict.stop });
  logger.info(
    {
      chainId,
      submissionId: opened.submissionId,
      outcome: verdict.submission.outcome,
      statuses: countStatuses(settled),
      reason: verdict.submission.errorMessage ?? undefined,
    },
    'message settled',
  );
  for (const r of verdict.records) {
    if (r.kind === 'again' && r.unknownState !== undefined) {
      logger.warn(
        { chainId, submissionId: opened.submissionId, invoiceId: r.sent.invoiceId, estadoRegistro: r.unknownState },
        'unknown EstadoRegistro in the answer',
      );
    }
  }
  return verdict;
}

/**
 * Each record the answer left to the Consulta service: asked about one by one, over the message's connection. Once
 * the Consulta service gives no usable answer, the rest are not asked now: they go again, and are asked then.
 */
async function askAboutOpenRecords(transport: SoapTransport, verdict: Verdict, message: OpenMessage): Promise<Verdict> {
  const records: RecordVerdict[] = [];
  let consultaAnswers = true;
  for (const r of verdict.records) {
    if (r.kind !== 'ask') {
      records.push(r);
      continue;
    }
    const exchange = consultaAnswers
      ? await transport
          .send(
            'ConsultaFactuSistemaFacturacion',
            message.endpoint,
            message.certificate.agent,
            consultaRequestFor(r.sent, message.obligado),
            scenarioHeaders(message),
          )
          .catch(() => undefined)
      : undefined;
    const held = heldRecordIn(exchange, r.sent);
    if (held === undefined) consultaAnswers = false;
    records.push(judgeHeldRecord(r, held, verdict.submission.csv));
  }
  return { ...verdict, records };
}

function countStatuses(outcomes: InvoiceOutcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of outcomes) counts[o.status] = (counts[o.status] ?? 0) + 1;
  return counts;
}
