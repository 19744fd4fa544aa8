import { randomUUID } from 'node:crypto';
import { DelayedError, type Job } from 'bullmq';
import pLimit from 'p-limit';
import type { Logger } from 'pino';
import { CertificateUnusableError, type ClientCertificates, type SoapTransport } from '@vf/authority-client';
import type { AppConfig } from '@vf/config';
import { SANDBOX_SCENARIO_HEADER } from '@vf/core';
import {
  FULL_BATCH,
  senderStopStore,
  senderTaxpayerStore,
  sendStateStore,
  SignedRecordConflictError,
  signedRecordStore,
  submissionBatchStore,
  submissionRecordStore,
  type Db,
  type DbOrTx,
  type InvoiceOutcome,
  type LeaseEnd,
  type NewSignedRecord,
  type OpenedSubmission,
  type SendState,
  type Tx,
} from '@vf/db';
import type { SubmissionJobData } from '@vf/queue';
import { recordClockOffset, recordFlowControlWait, recordSend, recordSenderStop } from '../metrics/send-metrics';
import { failedSend, judgeAnswer, type RecordVerdict, type SentRecord, type Verdict } from '../sending/judge-answer';
import { consultaRequestFor, heldRecordIn, judgeHeldRecord } from '../sending/judge-held-record';
import { planMessage, type MessageInput, type PreparedMessage } from '../sending/plan-message';
import { judgeRetry, retryTime } from '../sending/plan-retry';

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

/** The lease was taken over by another worker: this sender must write nothing more. */
export class LeaseLostError extends Error {
  constructor(chainId: string) {
    super(`send lease of chain ${chainId} lost to another worker`);
    this.name = 'LeaseLostError';
  }
}

type LeaseAttempt = { lease: SendLease } | { retryAt: Date };

/**
 * A chain's send lease, from taking it to letting it go: one sender per chain across every worker process
 * (docs/decisions/0003-single-sender-lease.md). Taken only when flow control allows a send; renewed every third of
 * its time to live while held; every write of a send's results is fenced on it; kept for another message only if
 * flow control allows one at once; released at the end, after which the chain's job sleeps until its next send.
 */
class SendLease {
  private readonly heartbeat: NodeJS.Timeout;
  private renewal: Promise<void> = Promise.resolve();

  private constructor(
    private readonly db: Db,
    readonly chainId: string,
    /** Unique per acquisition: a sender whose lease was taken over can no longer match it. */
    readonly owner: string,
    private readonly ttlMs: number,
    onRenewalError: (err: unknown) => void,
  ) {
    this.heartbeat = setInterval(
      () => {
        // A renewal that fails is not fatal: if the lease is really lost, the next fenced write refuses.
        this.renewal = this.renewal.then(() => this.renew().then(() => undefined, onRenewalError));
      },
      Math.max(100, Math.floor(ttlMs / 3)),
    );
    this.heartbeat.unref();
  }

  /**
   * Becomes the chain's sender, or says when to try again (the other holder's expiry, or flow control). A chain's
   * first lease makes its row, which keeps `firstWaitSeconds` as its waiting time until the authority's first answer.
   */
  static async take(
    db: Db,
    chainId: string,
    owner: string,
    { ttlMs, firstWaitSeconds }: { ttlMs: number; firstWaitSeconds: number },
    onRenewalError: (err: unknown) => void,
  ): Promise<LeaseAttempt> {
    const attempt = await sendStateStore.acquireLease(db, chainId, owner, ttlMs, firstWaitSeconds);
    if (!attempt.acquired) return { retryAt: attempt.retryAt };
    return { lease: new SendLease(db, chainId, owner, ttlMs, onRenewalError) };
  }

  /** Extends the lease; false when it was taken over. */
  renew(): Promise<boolean> {
    return sendStateStore.renewLease(this.db, this.chainId, this.owner, this.ttlMs);
  }

  /** Keeps the lease for another message only if flow control allows one now (or a full message waits). */
  keepForNext(): Promise<boolean> {
    return sendStateStore.continueLease(this.db, this.chainId, this.owner, this.ttlMs);
  }

  /** Runs `work` in a transaction holding the chain's send state row, only while the lease is still this sender's. */
  fenced<T>(work: (tx: Tx, state: SendState) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      const state = await sendStateStore.lockOwned(tx, this.chainId, this.owner);
      if (!state) throw new LeaseLostError(this.chainId);
      return work(tx, state);
    });
  }

  /**
   * Stops renewing and lets the lease go, marking as it goes the records that wait behind one in error (a lease that
   * could not be released expires). Returns when the chain may send next and whether records still wait; undefined
   * when the lease had been lost.
   */
  async release(): Promise<LeaseEnd | undefined> {
    clearInterval(this.heartbeat);
    await this.renewal;
    return sendStateStore.releaseLease(this.db, this.chainId, this.owner);
  }
}

/**
 * The job of one chain (docs/decisions/0009-one-queue-job-per-chain.md), and the one place where its I/O happens: the
 * lease, the reads, the exchanges with the authority and the writes. What to send, what an answer means and what to ask
 * next are decided by the pure functions of `sending/`. Each run becomes the chain's sender and sends message
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

/** What one turn of the sender produced: a message's verdict, records failed or a conflict with nothing sent, or nothing to send. */
type Step = Verdict | 'not_sent' | 'nothing_waiting';

/**
 * Message after message (each turn `sendNext`) while the lease is kept; then the lease goes, and whatever waits behind
 * a record in error says so as it goes. Returns what the release left (undefined when the lease was lost or could not
 * be released).
 */
async function sendWhileAllowed(
  lease: SendLease,
  sendNext: (lease: SendLease) => Promise<Step>,
  { stopping, logger }: { stopping: () => boolean; logger: Logger },
): Promise<LeaseEnd | undefined> {
  const { chainId } = lease;
  let pause: 'waiting_time' | 'backoff' | undefined;
  let ended: LeaseEnd | undefined;
  try {
    while (!stopping()) {
      const step = await sendNext(lease);
      if (step === 'nothing_waiting') break;
      // Nothing usable came back: the chain backs off.
      if (step !== 'not_sent' && step.exchange === 'unanswered') {
        pause = 'backoff';
        break;
      }
      // Nothing went: carry on at once. Something went: again at once only if 1,000 records are already waiting.
      const kept = step === 'not_sent' ? await lease.renew() : await lease.keepForNext();
      if (!kept) {
        if (step !== 'not_sent') pause = 'waiting_time';
        break;
      }
    }
  } catch (err) {
    if (!(err instanceof LeaseLostError)) throw err;
    logger.warn({ chainId }, err.message);
  } finally {
    // Whatever now waits behind a record in error says so at once, not when flow control next lets a send go.
    ended = await lease.release().catch((err: unknown) => {
      logger.error({ err, chainId }, 'could not release the send lease; it will expire');
      return undefined;
    });
  }
  if (pause && ended) recordFlowControlWait(ended, pause);
  return ended;
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

/** A message whose signatures are stored and submission opened: ready to go. */
type OpenMessage = Omit<PreparedMessage, 'signed'>;

/** The transaction before a message goes: its new signatures kept, older attempts closed, the submission opened. */
async function openSubmission(
  tx: DbOrTx,
  message: OpenMessage,
  signed: NewSignedRecord[],
  sender: { workerId: string; requestTimeoutMs: number },
): Promise<OpenedSubmission> {
  const { chainId } = message;
  await signedRecordStore.keep(tx, signed);
  const opened = await submissionRecordStore.open(
    tx,
    {
      taxpayerId: message.taxpayerId,
      chainId,
      workerId: sender.workerId,
      endpoint: message.endpoint,
      certificateMode: message.certificate.mode,
      incident: message.incident,
      requestXml: message.storedRequestXml,
      invoiceIds: message.records.map((r) => r.invoiceId),
    },
    'the sending worker stopped before the answer was recorded; its records were sent again',
  );
  await sendStateStore.recordSendStart(tx, chainId, sender.requestTimeoutMs);
  return opened;
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

interface SettleDeps {
  sender: AppConfig['sender'];
  now: () => Date;
  random?: () => number;
}

/**
 * A message's verdict written, fenced on the lease: the chain's timing, a sender stop, and each record's outcome, the
 * records that go again given their next attempt. Returns the outcomes written.
 */
function settleVerdict(
  lease: SendLease,
  verdict: Verdict,
  message: OpenMessage,
  opened: OpenedSubmission,
  deps: SettleDeps,
): Promise<InvoiceOutcome[]> {
  const { chainId } = message;
  return lease.fenced(async (tx, state) => {
    if (verdict.exchange === 'answered') await sendStateStore.recordAnswerTiming(tx, chainId, verdict.waitSeconds);
    if (verdict.exchange === 'refused') await sendStateStore.recordRejectionTiming(tx, chainId);
    // A scenario's 4141 is the rehearsal of one: its record shows it, and no real send is stopped.
    if (verdict.stop && message.scenario === undefined)
      await senderStopStore.stop(tx, {
        certificateFingerprint: message.certificate.fingerprint,
        certificateSubject: message.certificate.subject,
        code: verdict.stop.code,
        message: verdict.stop.message,
      });
    const outcomes: InvoiceOutcome[] = verdict.records.flatMap((r) => (r.kind === 'settled' ? [r.outcome] : []));
    const again = verdict.records.filter((r): r is Extract<RecordVerdict, { kind: 'again' }> => r.kind === 'again');
    if (again.length > 0) {
      const { backoffBaseMs, backoffMaxMs, errorAfterSeconds, retryMinSeconds } = deps.sender;
      const at = deps.now();
      const retryAt = retryTime(
        verdict,
        state,
        { baseMs: backoffBaseMs, maxMs: backoffMaxMs, minSeconds: retryMinSeconds },
        at,
        deps.random,
      );
      // Only a send without an answer is part of an outage; records left open by an answer count from now, and the
      // chain's next message waits for them (a retry code inside an answer is retried no faster than a lost answer).
      const failingSince =
        verdict.exchange === 'unanswered'
          ? await sendStateStore.recordFailureTiming(tx, chainId, retryAt, at)
          : (await sendStateStore.deferNextSend(tx, chainId, retryAt), at);
      outcomes.push(...judgeRetry(again, { retryAt, failingSince, now: at, errorAfterSeconds }));
    }
    await submissionRecordStore.applyInvoiceOutcomes(tx, outcomes, { id: opened.submissionId, result: verdict.submission });
    return outcomes;
  });
}

/**
 * A scenario chain's timing: the simulator answers its messages a waiting time of a second, and a failing scenario
 * chain goes again within seconds, so that an integrator's own test suite sees every outcome quickly. Real sandbox and
 * production chains keep the authority's timing (docs/decisions/0040-scenario-chains-apart.md).
 */
function scenarioTiming(sender: AppConfig['sender']): AppConfig['sender'] {
  return { ...sender, backoffBaseMs: 500, backoffMaxMs: 2_000, retryMinSeconds: 1 };
}

/** The request headers of a message to the simulator: the scenario its record goes under. */
function scenarioHeaders(message: { scenario?: string }): Record<string, string> | undefined {
  return message.scenario === undefined ? undefined : { [SANDBOX_SCENARIO_HEADER]: message.scenario };
}

function countStatuses(outcomes: InvoiceOutcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of outcomes) counts[o.status] = (counts[o.status] ?? 0) + 1;
  return counts;
}
