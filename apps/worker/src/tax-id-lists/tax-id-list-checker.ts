import { Worker, type ConnectionOptions, type Job } from 'bullmq';
import type { Logger } from 'pino';
import type { AppConfig } from '@vf/config';
import { taxIdListStore, type Db } from '@vf/db';
import { TAX_ID_LIST_QUEUE, taxIdListJobId, type Queues, type TaxIdListJobData } from '@vf/queue';
import { createCensusGateway, createTaxIdChecker, createViesGateway, runTaxIdList } from '@vf/tax-ids';
import type { JobsInHand } from '../runtime/jobs-in-hand';

/** A list's job put back by the sweep no sooner than this after the list was made: the API adds it first. */
const GRACE_MS = 10_000;

export interface TaxIdListChecker {
  start(): Promise<void>;
  /** `force` when Redis is away (see QueueWorkers.close); lists in hand are waited for by the caller. */
  close(force: boolean): Promise<void>;
}

/**
 * Lists of tax IDs in the workers: a job per list, checked against the census and VIES as the API would; a periodic
 * sweep puts back the job of a list PostgreSQL still holds as pending (Redis lost it, or it failed its attempts).
 */
export function createTaxIdListChecker(deps: {
  db: Db;
  connection: ConnectionOptions;
  queues: Pick<Queues, 'taxIdLists'>;
  config: AppConfig;
  logger: Logger;
  inHand: JobsInHand;
  onQueueError(source: string): (err: unknown) => void;
}): TaxIdListChecker {
  const { db, config, logger } = deps;
  const clock = () => new Date();
  const { authority, masterKey, platformCertificate } = config;
  const checker = createTaxIdChecker({
    db,
    census: createCensusGateway(authority, { masterKey, platformCertificate }),
    vies: createViesGateway(config.vies, authority),
    clock,
  });
  let worker: Worker | undefined;
  let timer: NodeJS.Timeout | undefined;
  let sweeping: Promise<void> = Promise.resolve();
  let stopped = false;

  async function sweep(): Promise<void> {
    const pending = await taxIdListStore.pending(db, new Date(Date.now() - GRACE_MS));
    if (pending.length === 0) return;
    await deps.queues.taxIdLists.addBulk(
      pending.map((listId) => ({ name: 'check', data: { listId }, opts: { jobId: taxIdListJobId(listId) } })),
    );
  }

  return {
    async start() {
      const check = deps.inHand.track(async (job: Job<TaxIdListJobData>) => {
        const outcome = await runTaxIdList({ db, checker, clock }, job.data.listId);
        logger.info({ listId: job.data.listId, outcome }, 'tax ID list checked');
      });
      // One list at a time per process: a list is up to 10,000 rows in one census request already.
      worker = new Worker(TAX_ID_LIST_QUEUE, check, { connection: deps.connection, prefix: config.queuePrefix, concurrency: 1 });
      worker.on('error', deps.onQueueError('tax ID list worker'));
      const tick = () => {
        sweeping = sweep()
          .catch((err: unknown) => logger.warn({ err }, 'tax ID list sweep failed; trying again'))
          .finally(() => {
            if (!stopped) timer = setTimeout(tick, config.reconcileIntervalMs);
          });
      };
      tick();
    },
    async close(force) {
      stopped = true;
      clearTimeout(timer);
      await sweeping;
      await worker?.close(force);
    },
  };
}
