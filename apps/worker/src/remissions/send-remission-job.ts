import { randomUUID } from 'node:crypto';
import type { Agent } from 'node:http';
import { DelayedError, type Job } from 'bullmq';
import type { Logger } from 'pino';
import {
  CertificateUnusableError,
  readRegFactuAnswer,
  selectRequirementEndpoint,
  type ClientCertificates,
  type SoapTransport,
} from '@vf/authority-client';
import type { AppConfig } from '@vf/config';
import { remissionSendStore, senderTaxpayerStore, signedRecordStore, type Db, type PendingRemissionMessage } from '@vf/db';
import type { RemissionJobData } from '@vf/queue';
import { LeaseLostError } from '../jobs/send-chain-job';
import { backoffDelayMs } from '../sending/backoff-policy';
import { judgeRemissionAnswer, type RemissionJudgement } from './judge-remission-answer';
import { RemissionLease } from './remission-lease';
import { remissionRequest } from './remission-request';

const MIN_WAKE_MS = 100;
const AFTER_FAILURE_MS = 5_000;
const WHILE_STOPPING_MS = 1_000;
/** Past the request's own timeout: nobody sends behind a message whose answer may still come. */
const ANSWER_MARGIN_SECONDS = 30;

export interface SendRemissionDeps {
  db: Db;
  config: Pick<AppConfig, 'authority' | 'sender'>;
  certificates: ClientCertificates;
  transport: SoapTransport;
  logger: Logger;
  workerId: string;
  leaseTtlMs: number;
  /** True once shutdown began: finish the message in hand, start no other. */
  stopping: () => boolean;
  random?: () => number;
}

/** What one turn left: the remission finished (completed or failed), or when it may send its next message. */
export type RemissionStep = { finished: true } | { nextAt: Date };

/**
 * One turn of a remission's sender: takes the lease when flow control allows, sends the first message not answered
 * (again, unchanged, if an earlier attempt's answer never came), records what it meant, and lets the lease go.
 * Progress is all in PostgreSQL, so a worker killed at any point leaves a remission the next turn resumes.
 */
export async function sendRemissionStep(deps: SendRemissionDeps, remissionId: string): Promise<RemissionStep> {
  const owner = `${deps.workerId}/${randomUUID()}`;
  const taken = await RemissionLease.take(deps.db, remissionId, owner, deps.leaseTtlMs, (err) =>
    deps.logger.warn({ err, remissionId }, 'remission lease renewal failed'),
  );
  if ('finished' in taken) return { finished: true };
  if ('retryAt' in taken) return { nextAt: taken.retryAt };
  let next: { sending: boolean; nextSendAt: Date } | undefined;
  try {
    await sendNextMessage(deps, taken.lease);
  } catch (err) {
    if (!(err instanceof LeaseLostError)) throw err;
    deps.logger.warn({ remissionId }, err.message);
  } finally {
    next = await taken.lease.release();
  }
  // A lease lost to another sender: look again at once; taking the lease says whether and when this one may go.
  if (!next) return { nextAt: new Date() };
  return next.sending ? { nextAt: next.nextSendAt } : { finished: true };
}

async function sendNextMessage(deps: SendRemissionDeps, lease: RemissionLease): Promise<void> {
  const { db, logger } = deps;
  const { remission } = lease;
  const message = await remissionSendStore.nextMessage(db, remission.id);
  if (!message) return;
  const taxpayer = await senderTaxpayerStore.forChain(db, remission.chainId);
  let agent: Agent;
  try {
    if (!taxpayer) throw new Error('the taxpayer no longer exists');
    agent = deps.certificates.forTaxpayer(taxpayer).agent;
  } catch (err) {
    if (taxpayer && !(err instanceof CertificateUnusableError)) throw err;
    return settle(deps, lease, message, { kind: 'refused', code: null, message: (err as Error).message, responseXml: '' });
  }
  const header = {
    obligado: { name: taxpayer.name, nif: taxpayer.nif },
    requirement: { reference: remission.reference, end: message.isLast },
  };
  const built = remissionRequest(header, message.invoiceIds, await signedRecordStore.of(db, message.invoiceIds));
  if (!built) {
    const refusal = 'the signed bytes of a record of this message are no longer kept';
    return settle(deps, lease, message, { kind: 'refused', code: null, message: refusal, responseXml: '' });
  }
  const deadline = Math.ceil(deps.config.authority.requestTimeoutMs / 1000) + ANSWER_MARGIN_SECONDS;
  await lease.fenced((tx) => remissionSendStore.open(tx, remission.id, message.seq, built.storedXml, deadline));
  const endpoint = selectRequirementEndpoint(deps.config.authority, remission.isProduction);
  logger.info(
    {
      remissionId: remission.id,
      message: message.seq,
      records: message.invoiceIds.length,
      attempt: message.attempts + 1,
      last: message.isLast,
    },
    'sending remission message',
  );
  let judgement: RemissionJudgement;
  try {
    const exchange = await deps.transport.send('RegFactuSistemaFacturacion', endpoint, agent, built.request);
    judgement = judgeRemissionAnswer(readRegFactuAnswer(exchange), message.invoiceIds.length);
  } catch (err) {
    judgement = { kind: 'again', error: `could not send: ${err instanceof Error ? err.message : String(err)}` };
  }
  await settle(deps, lease, message, judgement);
}

async function settle(deps: SendRemissionDeps, lease: RemissionLease, message: PendingRemissionMessage, judgement: RemissionJudgement) {
  const { id } = lease.remission;
  const log = { remissionId: id, message: message.seq };
  if (judgement.kind === 'answered') {
    await lease.fenced((tx) => remissionSendStore.answered(tx, id, message.seq, judgement.answer, message.isLast));
    const { accepted, acceptedWithErrors, duplicates, rejected } = judgement.answer;
    deps.logger.info({ ...log, accepted, acceptedWithErrors, duplicates, rejected }, 'remission message answered');
  } else if (judgement.kind === 'refused') {
    await lease.fenced((tx) => remissionSendStore.refused(tx, id, message.seq, judgement));
    deps.logger.warn({ ...log, code: judgement.code, reason: judgement.message }, 'remission refused; it stops');
  } else {
    const { backoffBaseMs: baseMs, backoffMaxMs: maxMs, retryMinSeconds } = deps.config.sender;
    const delayMs = Math.max(backoffDelayMs(lease.remission.consecutiveFailures, { baseMs, maxMs }, deps.random), retryMinSeconds * 1000);
    await lease.fenced((tx) => remissionSendStore.failedAttempt(tx, id, message.seq, judgement.error, delayMs / 1000));
    deps.logger.warn({ ...log, reason: judgement.error, retryInMs: delayMs }, 'remission message goes again');
  }
}

async function sleepUntil(job: Job<RemissionJobData>, token: string | undefined, at: number): Promise<never> {
  await job.moveToDelayed(Math.max(at, Date.now() + MIN_WAKE_MS), token);
  throw new DelayedError();
}

/** The BullMQ job of one remission (`remission-<id>`): a turn, then asleep until the next is allowed, until it finishes. */
export function createSendRemissionJob(deps: SendRemissionDeps) {
  return async function sendRemissionJob(job: Job<RemissionJobData>, token?: string): Promise<{ remission: 'finished' }> {
    const { remissionId } = job.data;
    try {
      if (deps.stopping()) return await sleepUntil(job, token, Date.now() + WHILE_STOPPING_MS);
      const step = await sendRemissionStep(deps, remissionId);
      if ('finished' in step) return { remission: 'finished' };
      return await sleepUntil(job, token, step.nextAt.getTime());
    } catch (err) {
      if (err instanceof DelayedError) throw err;
      deps.logger.error({ err, remissionId }, 'remission turn failed; will look again');
      return sleepUntil(job, token, Date.now() + AFTER_FAILURE_MS);
    }
  };
}
