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

export interface TaxpayerSenderDeps {
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
  constructor(taxpayerId: string) {
    super(`send lease of taxpayer ${taxpayerId} lost to another worker`);
    this.name = 'LeaseLostError';
  }
}

type Step = 'sent' | 'retry_later' | 'not_sent' | 'nothing_waiting';

/**
 * The single sender of one taxpayer while it holds the lease: message after message (1,000 records at most, chain
 * order) for as long as flow control allows, each one recorded before it goes and settled after its answer.
 */
export class TaxpayerSender {
  private readonly now: () => Date;

  constructor(private readonly deps: TaxpayerSenderDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** Sends while allowed, then releases the lease whatever happens. */
  async run(taxpayerId: string, owner: string): Promise<void> {
    const { db, leaseTtlMs, logger } = this.deps;
    // Renewed for as long as this sender holds the lease: preparing 1,000 records takes time too.
    const heartbeat = new LeaseHeartbeat(() => renewSendLease(db, taxpayerId, owner, leaseTtlMs), Math.max(100, Math.floor(leaseTtlMs / 3)), (err) =>
      logger.warn({ err, taxpayerId }, 'lease renewal failed'),
    ).start();
    let pause: 'waiting_time' | 'backoff' | undefined;
    try {
      while (!this.deps.stopping()) {
        const step = await this.sendNext(taxpayerId, owner);
        if (step === 'nothing_waiting') break;
        if (step === 'retry_later') {
          pause = 'backoff';
          break;
        }
        // Nothing went: carry on at once. Something went: again at once only if 1,000 records are already waiting.
        const keep = step === 'not_sent' ? await renewSendLease(db, taxpayerId, owner, leaseTtlMs) : await continueSendLease(db, taxpayerId, owner, leaseTtlMs);
        if (!keep) {
          if (step === 'sent') pause = 'waiting_time';
          break;
        }
      }
      // Whatever now waits behind a record in error says so at once, not when flow control next lets a send go.
      await this.fenced(taxpayerId, owner, (tx) => holdRecordsBehind(tx, taxpayerId, { alsoRetrying: true }));
    } catch (err) {
      if (!(err instanceof LeaseLostError)) throw err;
      logger.warn({ taxpayerId }, err.message);
    } finally {
      await heartbeat.stop();
      await releaseSendLease(db, taxpayerId, owner).catch((err) => logger.error({ err, taxpayerId }, 'could not release the send lease; it will expire'));
    }
    if (pause) await recordFlowControlWait(db, taxpayerId, pause).catch((err) => logger.warn({ err, taxpayerId }, 'flow-control wait not measured'));
  }

  private async sendNext(taxpayerId: string, owner: string): Promise<Step> {
    const { db, config, certificates } = this.deps;
    const prepared = await prepareMessage(db, taxpayerId, {
      authority: config.authority,
      incidentAfterSeconds: config.sender.incidentAfterSeconds,
      certificates,
      now: this.now,
    });
    if (prepared.kind === 'nothing_waiting') return 'nothing_waiting';
    if (prepared.failed.length > 0) {
      await this.fenced(taxpayerId, owner, (tx) => applyInvoiceOutcomes(tx, prepared.failed, null));
      this.deps.logger.warn({ taxpayerId, count: prepared.failed.length, reason: prepared.failed[0].lastError }, 'records marked error before sending');
    }
    if (!prepared.message) return 'not_sent';
    return this.send(prepared.message, owner);
  }

  private async send(message: PreparedMessage, owner: string): Promise<Step> {
    const { transport, logger, workerId } = this.deps;
    const { taxpayerId } = message;
    const opened = await this.fenced(taxpayerId, owner, async (tx) => {
      await abandonInFlightSubmissions(tx, taxpayerId, 'the sending worker stopped before the answer was recorded; its records were sent again');
      const o = await openSubmission(tx, {
        taxpayerId,
        workerId,
        endpoint: message.endpoint,
        certificateMode: message.certificate.mode,
        incident: message.incident,
        requestXml: message.requestXml,
        invoiceIds: message.records.map((r) => r.invoiceId),
      });
      await recordSendStart(tx, taxpayerId, this.deps.config.authority.requestTimeoutMs);
      return o;
    });
    const sent: SentRecord[] = message.records
      .filter((r) => opened.attempts.has(r.invoiceId))
      .map((r) => ({ invoiceId: r.invoiceId, record: r.record, attempt: opened.attempts.get(r.invoiceId)! }));
    logger.info({ taxpayerId, submissionId: opened.submissionId, records: sent.length, incident: message.incident }, 'sending message');

    const startedAt = performance.now();
    let answeredAt: number | undefined;
    const exchangeAndInterpret = async () => {
      const exchange = await transport.send('RegFactuSistemaFacturacion', message.endpoint, message.certificate.agent, message.requestXml);
      answeredAt = performance.now();
      return interpretExchange(exchange, sent, message, transport);
    };
    const result = await exchangeAndInterpret().catch((err: unknown) => {
      // Whatever failed here, the records are `sent` and counted: they take the retry path with its backoff, never a tight loop.
      logger.error({ err, taxpayerId, submissionId: opened.submissionId }, 'sending failed unexpectedly');
      return interpretFailure(sent, `could not send: ${err instanceof Error ? err.message : String(err)}`);
    });

    const settled = await this.fenced(taxpayerId, owner, async (tx, state) => {
      await closeSubmission(tx, opened.submissionId, result.submission);
      if (result.kind === 'answered') await recordAnswerTiming(tx, taxpayerId, result.waitSeconds);
      if (result.kind === 'rejected_message') await recordRejectionTiming(tx, taxpayerId);
      let outcomes = result.outcomes;
      if (result.unsettled.length > 0) {
        const { backoffBaseMs, backoffMaxMs, errorAfterSeconds } = this.deps.config.sender;
        const delayMs = backoffDelayMs(state.consecutiveFailures, { baseMs: backoffBaseMs, maxMs: backoffMaxMs }, this.deps.random);
        // Never earlier than flow control allows, counted from now: a message without an answer may have been processed.
        const now = this.now();
        const flowControl = now.getTime() + (result.kind === 'retry' ? state.waitSeconds : result.waitSeconds) * 1000;
        const retryAt = new Date(Math.max(now.getTime() + delayMs, flowControl));
        // Only a send without an answer is part of an outage; records left open by an answer count from now.
        const failingSince = result.kind === 'retry' ? await recordFailureTiming(tx, taxpayerId, retryAt, now) : now;
        outcomes = [...outcomes, ...judgeRetry(result.unsettled, { retryAt, failingSince, now, errorAfterSeconds })];
      }
      await applyInvoiceOutcomes(tx, outcomes, opened.submissionId);
      return outcomes;
    });
    recordSend(result, settled, ((answeredAt ?? performance.now()) - startedAt) / 1000);
    logger.info(
      { taxpayerId, submissionId: opened.submissionId, outcome: result.submission.outcome, statuses: countStatuses(settled), reason: result.submission.errorMessage ?? undefined },
      'message settled',
    );
    for (const u of result.unsettled.filter((x) => x.unknownState !== undefined)) {
      logger.warn({ taxpayerId, submissionId: opened.submissionId, invoiceId: u.sent.invoiceId, estadoRegistro: u.unknownState }, 'unknown EstadoRegistro in the answer');
    }
    return result.kind === 'retry' ? 'retry_later' : 'sent';
  }

  /** Runs `work` in a transaction that holds the taxpayer's send_states row, only if the lease is still ours. */
  private fenced<T>(taxpayerId: string, owner: string, work: (tx: Tx, state: SendState) => Promise<T>): Promise<T> {
    return this.deps.db.transaction(async (tx) => {
      const state = await lockOwnedSendState(tx, taxpayerId, owner);
      if (!state) throw new LeaseLostError(taxpayerId);
      return work(tx, state);
    });
  }
}

function countStatuses(outcomes: InvoiceOutcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of outcomes) counts[o.status] = (counts[o.status] ?? 0) + 1;
  return counts;
}
