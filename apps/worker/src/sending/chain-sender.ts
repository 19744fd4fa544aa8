import type { Logger } from 'pino';
import type { AppConfig } from '@vf/config';
import type { Db, Tx } from '@vf/db';
import {
  continueSendLease,
  lockOwnedSendState,
  recordAnswerTiming,
  recordFailureTiming,
  recordRejectionTiming,
  recordSendStart,
  releaseSendLease,
  renewSendLease,
  type SendState,
} from '@vf/db/src/stores/send-state-store';
import {
  abandonInFlightSubmissions,
  applyInvoiceOutcomes,
  closeSubmission,
  holdRecordsBehind,
  openSubmission,
  type InvoiceOutcome,
} from '@vf/db/src/stores/submission-record-store';
import { recordFlowControlWait, recordSend } from '../metrics/send-metrics';
import type { ClientCertificates } from '../transport/client-certificates';
import type { SoapTransport } from '../transport/soap-transport';
import { backoffDelayMs } from './backoff-policy';
import { interpretExchange, interpretFailure } from './interpret-exchange';
import { LeaseHeartbeat } from './lease-heartbeat';
import { judgeRetry, type SentRecord } from './map-outcomes';
import { prepareMessage, type PreparedMessage } from './prepare-message';

export interface ChainSenderDeps {
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

/** The lease was taken over by another worker: this sender must write nothing more. */
export class LeaseLostError extends Error {
  constructor(chainId: string) {
    super(`send lease of chain ${chainId} lost to another worker`);
    this.name = 'LeaseLostError';
  }
}

type Step = 'sent' | 'retry_later' | 'not_sent' | 'nothing_waiting';

/**
 * The single sender of one chain (one taxpayer NIF in one environment) while it holds the chain's lease: message
 * after message (1,000 records at most, chain order) for as long as the chain's flow control allows, each one
 * recorded before it goes and settled after its answer.
 */
export class ChainSender {
  private readonly now: () => Date;

  constructor(private readonly deps: ChainSenderDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** Sends while allowed, then releases the lease whatever happens. */
  async run(chainId: string, owner: string): Promise<void> {
    const { db, leaseTtlMs, logger } = this.deps;
    // Renewed for as long as this sender holds the lease: preparing 1,000 records takes time too.
    const heartbeat = new LeaseHeartbeat(() => renewSendLease(db, chainId, owner, leaseTtlMs), Math.max(100, Math.floor(leaseTtlMs / 3)), (err) =>
      logger.warn({ err, chainId }, 'lease renewal failed'),
    ).start();
    let pause: 'waiting_time' | 'backoff' | undefined;
    try {
      while (!this.deps.stopping()) {
        const step = await this.sendNext(chainId, owner);
        if (step === 'nothing_waiting') break;
        if (step === 'retry_later') {
          pause = 'backoff';
          break;
        }
        // Nothing went: carry on at once. Something went: again at once only if 1,000 records are already waiting.
        const keep = step === 'not_sent' ? await renewSendLease(db, chainId, owner, leaseTtlMs) : await continueSendLease(db, chainId, owner, leaseTtlMs);
        if (!keep) {
          if (step === 'sent') pause = 'waiting_time';
          break;
        }
      }
      // Whatever now waits behind a record in error says so at once, not when flow control next lets a send go.
      await this.fenced(chainId, owner, (tx) => holdRecordsBehind(tx, chainId, { alsoRetrying: true }));
    } catch (err) {
      if (!(err instanceof LeaseLostError)) throw err;
      logger.warn({ chainId }, err.message);
    } finally {
      await heartbeat.stop();
      await releaseSendLease(db, chainId, owner).catch((err) => logger.error({ err, chainId }, 'could not release the send lease; it will expire'));
    }
    if (pause) await recordFlowControlWait(db, chainId, pause).catch((err) => logger.warn({ err, chainId }, 'flow-control wait not measured'));
  }

  private async sendNext(chainId: string, owner: string): Promise<Step> {
    const { db, config, certificates } = this.deps;
    const prepared = await prepareMessage(db, chainId, {
      authority: config.authority,
      incidentAfterSeconds: config.sender.incidentAfterSeconds,
      certificates,
      now: this.now,
    });
    if (prepared.kind === 'nothing_waiting') return 'nothing_waiting';
    if (prepared.failed.length > 0) {
      await this.fenced(chainId, owner, (tx) => applyInvoiceOutcomes(tx, prepared.failed, null));
      this.deps.logger.warn({ chainId, count: prepared.failed.length, reason: prepared.failed[0].lastError }, 'records marked error before sending');
    }
    if (!prepared.message) return 'not_sent';
    return this.send(prepared.message, owner);
  }

  private async send(message: PreparedMessage, owner: string): Promise<Step> {
    const { transport, logger, workerId } = this.deps;
    const { taxpayerId, chainId } = message;
    const opened = await this.fenced(chainId, owner, async (tx) => {
      await abandonInFlightSubmissions(tx, chainId, 'the sending worker stopped before the answer was recorded; its records were sent again');
      const o = await openSubmission(tx, {
        taxpayerId,
        chainId,
        workerId,
        endpoint: message.endpoint,
        certificateMode: message.certificate.mode,
        incident: message.incident,
        requestXml: message.requestXml,
        invoiceIds: message.records.map((r) => r.invoiceId),
      });
      await recordSendStart(tx, chainId, this.deps.config.authority.requestTimeoutMs);
      return o;
    });
    const sent: SentRecord[] = message.records
      .filter((r) => opened.attempts.has(r.invoiceId))
      .map((r) => ({ invoiceId: r.invoiceId, record: r.record, attempt: opened.attempts.get(r.invoiceId)! }));
    logger.info({ chainId, submissionId: opened.submissionId, records: sent.length, incident: message.incident }, 'sending message');

    const startedAt = performance.now();
    let answeredAt: number | undefined;
    const exchangeAndInterpret = async () => {
      const exchange = await transport.send('RegFactuSistemaFacturacion', message.endpoint, message.certificate.agent, message.requestXml);
      answeredAt = performance.now();
      return interpretExchange(exchange, sent, message, transport);
    };
    const result = await exchangeAndInterpret().catch((err: unknown) => {
      // Whatever failed here, the records are `sent` and counted: they take the retry path with its backoff, never a tight loop.
      logger.error({ err, chainId, submissionId: opened.submissionId }, 'sending failed unexpectedly');
      return interpretFailure(sent, `could not send: ${err instanceof Error ? err.message : String(err)}`);
    });

    const settled = await this.fenced(chainId, owner, async (tx, state) => {
      await closeSubmission(tx, opened.submissionId, result.submission);
      if (result.kind === 'answered') await recordAnswerTiming(tx, chainId, result.waitSeconds);
      if (result.kind === 'rejected_message') await recordRejectionTiming(tx, chainId);
      let outcomes = result.outcomes;
      if (result.unsettled.length > 0) {
        const { backoffBaseMs, backoffMaxMs, errorAfterSeconds } = this.deps.config.sender;
        const delayMs = backoffDelayMs(state.consecutiveFailures, { baseMs: backoffBaseMs, maxMs: backoffMaxMs }, this.deps.random);
        // Never earlier than flow control allows, counted from now: a message without an answer may have been processed.
        const now = this.now();
        const flowControl = now.getTime() + (result.kind === 'retry' ? state.waitSeconds : result.waitSeconds) * 1000;
        const retryAt = new Date(Math.max(now.getTime() + delayMs, flowControl));
        // Only a send without an answer is part of an outage; records left open by an answer count from now.
        const failingSince = result.kind === 'retry' ? await recordFailureTiming(tx, chainId, retryAt, now) : now;
        outcomes = [...outcomes, ...judgeRetry(result.unsettled, { retryAt, failingSince, now, errorAfterSeconds })];
      }
      await applyInvoiceOutcomes(tx, outcomes, opened.submissionId);
      return outcomes;
    });
    recordSend(result, settled, ((answeredAt ?? performance.now()) - startedAt) / 1000);
    logger.info(
      { chainId, submissionId: opened.submissionId, outcome: result.submission.outcome, statuses: countStatuses(settled), reason: result.submission.errorMessage ?? undefined },
      'message settled',
    );
    for (const u of result.unsettled.filter((x) => x.unknownState !== undefined)) {
      logger.warn({ chainId, submissionId: opened.submissionId, invoiceId: u.sent.invoiceId, estadoRegistro: u.unknownState }, 'unknown EstadoRegistro in the answer');
    }
    return result.kind === 'retry' ? 'retry_later' : 'sent';
  }

  /** Runs `work` in a transaction that holds the chain's send_states row, only if the lease is still ours. */
  private fenced<T>(chainId: string, owner: string, work: (tx: Tx, state: SendState) => Promise<T>): Promise<T> {
    return this.deps.db.transaction(async (tx) => {
      const state = await lockOwnedSendState(tx, chainId, owner);
      if (!state) throw new LeaseLostError(chainId);
      return work(tx, state);
    });
  }
}

function countStatuses(outcomes: InvoiceOutcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of outcomes) counts[o.status] = (counts[o.status] ?? 0) + 1;
  return counts;
}
