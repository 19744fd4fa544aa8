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
  signedRecordStore,
  submissionBatchStore,
  submissionRecordStore,
  type Db,
  type DbOrTx,
  type InvoiceOutcome,
  type LeaseEnd,
  type NewSignedRecord,
  type OpenedSubmission,
} from '@vf/db';
import type { SubmissionJobData } from '@vf/queue';
import { LeaseLostError, SendLease } from '../lease/send-lease';
import { recordClockOffset, recordFlowControlWait, recordSend, recordSenderStop } from '../metrics/send-metrics';
import { failedSend, judgeAnswer } from '../sending/judge-answer';
import { consultaRequestFor, heldRecordIn, judgeHeldRecord } from '../sending/judge-held-record';
import { planMessage, type MessageInput, type PreparedMessage } from '../sending/plan-message';
import { judgeRetry, retryTime } from '../sending/plan-retry';
import type { RecordVerdict, SentRecord, Verdict } from '../sending/verdict';

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

/** A message whose signatures are stored and submission opened: ready to go. */
type OpenMessage = Omit<PreparedMessage, 'signed'>;

/** What one turn of the sender produced: a message's verdict, records failed or a conflict with nothing sent, or nothing to send. */
type Step = Verdict | 'not_sent' | 'nothing_waiting';

/**
 * The job of one chain (docs/decisions/0009-one-queue-job-per-chain.md), and the one place where its I/O happens:
 * the lease, the reads, the exchanges with the authority and the writes. What to send, what an answer means and what
 * to ask next are decided by the pure functions of `sending/`. Each run becomes the chain's sender and sends message
 * after message while flow control allows, or sleeps until a send could be allowed; it ends when nothing is left.
 */
export function createSendChainJob(deps: SendChainJobDeps) {
  const { db, logger } = deps;
  const now = deps.now ?? (() => new Date());
  const largeMessages = pLimit(LARGE_MESSAGES_AT_ONCE);

  async function sleepUntil(job: Job<SubmissionJobData>, token: string | undefined, at: number): Promise<never> {
    const readyAt = Math.max(at, Date.now() + MIN_WAKE_MS);
    await job.updateData({ ...job.data, readyAt });
    await job.moveToDelayed(readyAt, token);
    throw new DelayedError();
  }

  async function run(job: Job<SubmissionJobData>, token: string | undefined): Promise<SendChainJobResult> {
    const { chainId } = job.data;
    if (deps.stopping()) return sleepUntil(job, token, Date.now() + WHILE_STOPPING_MS);
    const taken = await SendLease.take(db, chainId, `${deps.workerId}/${randomUUID()}`, deps.leaseTtlMs, (err) =>
      logger.warn({ err, chainId }, 'lease renewal failed'),
    );
    const ended = 'lease' in taken ? await sendWhileAllowed(taken.lease) : undefined;
    if (ended) return ended.waiting ? sleepUntil(job, token, ended.nextSendAt.getTime()) : { chain: 'idle' };
    if (!(await submissionBatchStore.chainHasWork(db, chainId))) return { chain: 'idle' };
    if ('retryAt' in taken) return sleepUntil(job, token, taken.retryAt.getTime());
    const state = await sendStateStore.get(db, chainId);
    return sleepUntil(job, token, state?.nextSendAt.getTime() ?? Date.now());
  }

  /**
   * Message after message while the lease is kept; then the lease goes, and whatever waits behind a record in error
   * says so as it goes. Returns what the release left (undefined when the lease was lost or could not be released).
   */
  async function sendWhileAllowed(lease: SendLease): Promise<LeaseEnd | undefined> {
    const { chainId } = lease;
    let pause: 'waiting_time' | 'backoff' | undefined;
    let ended: LeaseEnd | undefined;
    try {
      while (!deps.stopping()) {
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
   * A large message takes its turn before its records are read and gives it back once it is stored, as it goes: what a
   * process holds while reading and signing stays that of two messages, and the next one is signed while the last
   * waits for its answer.
   */
  async function sendNext(lease: SendLease): Promise<Step> {
    const waiting = await submissionBatchStore.countWaiting(db, lease.chainId, LARGE_MESSAGE + 1);
    const ready = waiting > LARGE_MESSAGE ? await largeMessages(() => prepare(lease)) : await prepare(lease);
    return 'step' in ready ? ready.step : send(lease, ready.message, ready.opened);
  }

  /**
   * The next message read, planned, signed and its submission opened (committed before anything goes); or, when none
   * went, what happened instead. Its signatures are stored in that transaction: a crash before it commits signs again
   * next time, and nothing was sent.
   */
  async function prepare(lease: SendLease): Promise<{ step: Step } | { message: OpenMessage; opened: OpenedSubmission }> {
    const { chainId } = lease;
    const plan = await planMessage(await readMessageInput(chainId));
    if (plan.failed.length > 0) {
      await lease.fenced((tx) => submissionRecordStore.applyInvoiceOutcomes(tx, plan.failed, null));
      logger.warn({ chainId, count: plan.failed.length, reason: plan.failed[0].lastError }, 'records marked error before sending');
    }
    if (!plan.message) return { step: plan.failed.length > 0 ? 'not_sent' : 'nothing_waiting' };
    // The signed strings are not kept past their storing: the request's bytes carry them.
    const { signed, ...message } = plan.message;
    try {
      return { message, opened: await lease.fenced((tx) => openSubmission(tx, message, signed)) };
    } catch (err) {
      // Another signature of one of these records is stored (only a sender that lost its lease could have written it):
      // nothing was written or sent; the next pass builds the message from the stored signatures.
      if (!(err instanceof SignedRecordConflictError)) throw err;
      logger.warn({ chainId, invoiceIds: err.invoiceIds.slice(0, 10) }, err.message);
      return { step: 'not_sent' };
    }
  }

  async function readMessageInput(chainId: string): Promise<MessageInput> {
    const [waiting, held] = await Promise.all([
      submissionBatchStore.load(db, chainId, FULL_BATCH),
      submissionBatchStore.firstHeldRecord(db, chainId),
    ]);
    const taxpayer = waiting.length > 0 ? await senderTaxpayerStore.forChain(db, chainId) : undefined;
    let certificate: MessageInput['certificate'] = { problem: 'taxpayer_missing', reason: 'the taxpayer no longer exists' };
    if (taxpayer) {
      try {
        certificate = deps.certificates.forTaxpayer(taxpayer);
      } catch (err) {
        if (!(err instanceof CertificateUnusableError)) throw err;
        certificate = { problem: err.problem, reason: err.message };
      }
    }
    const stop = 'problem' in certificate ? undefined : await senderStopStore.find(db, certificate.fingerprint);
    const { authority, sender } = deps.config;
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
      now: now(),
    };
  }

  /** The transaction before a message goes: its new signatures kept, older attempts closed, the submission opened. */
  async function openSubmission(tx: DbOrTx, message: OpenMessage, signed: NewSignedRecord[]) {
    const { chainId } = message;
    await signedRecordStore.keep(tx, signed);
    const opened = await submissionRecordStore.open(
      tx,
      {
        taxpayerId: message.taxpayerId,
        chainId,
        workerId: deps.workerId,
        endpoint: message.endpoint,
        certificateMode: message.certificate.mode,
        incident: message.incident,
        requestXml: message.storedRequestXml,
        invoiceIds: message.records.map((r) => r.invoiceId),
      },
      'the sending worker stopped before the answer was recorded; its records were sent again',
    );
    await sendStateStore.recordSendStart(tx, chainId, deps.config.authority.requestTimeoutMs);
    return opened;
  }

  /** Sends an opened message, asks the Consulta service what the answer left open, and records each outcome. */
  async function send(lease: SendLease, message: OpenMessage, opened: OpenedSubmission): Promise<Verdict> {
    const { chainId } = message;
    const sent: SentRecord[] = message.records
      .filter((r) => opened.attempts.has(r.invoiceId))
      .map((r) => ({ invoiceId: r.invoiceId, record: r.record, attempt: opened.attempts.get(r.invoiceId)! }));
    logger.info({ chainId, submissionId: opened.submissionId, records: sent.length, incident: message.incident }, 'sending message');

    const startedAt = performance.now();
    let answeredAt: number | undefined;
    let verdict: Verdict;
    try {
      const exchange = await deps.transport.send(
        'RegFactuSistemaFacturacion',
        message.endpoint,
        message.certificate.agent,
        message.request,
      );
      answeredAt = performance.now();
      if (exchange.kind === 'http' && exchange.date) recordClockOffset(logger, exchange.date, now(), chainId);
      verdict = await askAboutOpenRecords(judgeAnswer(exchange, sent), message);
    } catch (err) {
      // Whatever failed here, the records are `sent` and counted: they take the retry path with its backoff, never a tight loop.
      logger.error({ err, chainId, submissionId: opened.submissionId }, 'sending failed unexpectedly');
      verdict = failedSend(sent, `could not send: ${err instanceof Error ? err.message : String(err)}`);
    }

    const settled = await lease.fenced(async (tx, state) => {
      if (verdict.exchange === 'answered') await sendStateStore.recordAnswerTiming(tx, chainId, verdict.waitSeconds);
      if (verdict.exchange === 'refused') await sendStateStore.recordRejectionTiming(tx, chainId);
      if (verdict.stop)
        await senderStopStore.stop(tx, {
          certificateFingerprint: message.certificate.fingerprint,
          certificateSubject: message.certificate.subject,
          code: verdict.stop.code,
          message: verdict.stop.message,
        });
      const outcomes: InvoiceOutcome[] = verdict.records.flatMap((r) => (r.kind === 'settled' ? [r.outcome] : []));
      const again = verdict.records.filter((r): r is Extract<RecordVerdict, { kind: 'again' }> => r.kind === 'again');
      if (again.length > 0) {
        const { backoffBaseMs, backoffMaxMs, errorAfterSeconds, retryMinSeconds } = deps.config.sender;
        const at = now();
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
    recordSend(verdict, settled, ((answeredAt ?? performance.now()) - startedAt) / 1000);
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
  async function askAboutOpenRecords(verdict: Verdict, message: OpenMessage): Promise<Verdict> {
    const records: RecordVerdict[] = [];
    let consultaAnswers = true;
    for (const r of verdict.records) {
      if (r.kind !== 'ask') {
        records.push(r);
        continue;
      }
      const exchange = consultaAnswers
        ? await deps.transport
            .send(
              'ConsultaFactuSistemaFacturacion',
              message.endpoint,
              message.certificate.agent,
              consultaRequestFor(r.sent, message.obligado),
            )
            .catch(() => undefined)
        : undefined;
      const held = heldRecordIn(exchange, r.sent);
      if (held === undefined) consultaAnswers = false;
      records.push(judgeHeldRecord(r, held, verdict.submission.csv));
    }
    return { ...verdict, records };
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

function countStatuses(outcomes: InvoiceOutcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of outcomes) counts[o.status] = (counts[o.status] ?? 0) + 1;
  return counts;
}
