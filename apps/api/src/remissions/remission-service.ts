import type { RemissionBody } from '@vf/contract';
import type { Db, RemissionView } from '@vf/db';
import { remissionStore, taxpayerStore } from '@vf/db';
import { withTimeout } from '@vf/lifecycle';
import { wakeRemissionSenders, type Queues } from '@vf/queue';
import { ApiError } from '../errors/api-error';
import type { SealAnswer } from '../idempotency/sealed-answer';

export type RemissionService = ReturnType<typeof createRemissionService>;

/** Remissions on the authority's request: started here, sent by the workers, read back with their progress. */
export function createRemissionService(deps: { db: Db; queues: Pick<Queues, 'remission'>; enqueueTimeoutMs: number }) {
  const { db } = deps;
  return {
    /** `answer`: with an Idempotency-Key, the answer kept in the transaction that plans the remission. */
    async start(accountId: string, taxpayerId: string, body: RemissionBody, answer?: SealAnswer<RemissionView>): Promise<RemissionView> {
      const started = await remissionStore.startOnce(
        db,
        { accountId, taxpayerId, reference: body.requirement_reference, from: body.period.from, to: body.period.to },
        answer,
      );
      if ('refused' in started) {
        switch (started.refused) {
          case 'taxpayer_not_found':
            throw new ApiError('taxpayer_not_found', 'No taxpayer with this id in your account.');
          case 'no_records':
            throw new ApiError('no_records_in_period', 'The taxpayer has no records with an invoice date in this period.');
          case 'records_not_signed':
            throw new ApiError(
              'records_not_signed',
              `${started.count} record(s) of the period have no signature kept: they cannot be sent unchanged and signed.`,
            );
          case 'remission_in_progress':
            throw new ApiError(
              'remission_in_progress',
              'Another remission of this taxpayer is still sending; start this one after it ends.',
            );
        }
      }
      // PostgreSQL holds the remission: a Redis that does not answer only delays it until the reconciler's next run.
      await withTimeout(wakeRemissionSenders(deps.queues.remission, [started.id]), deps.enqueueTimeoutMs, 'enqueue').catch(() => undefined);
      return started;
    },

    async get(accountId: string, taxpayerId: string, id: string): Promise<RemissionView> {
      const found = await remissionStore.get(db, accountId, taxpayerId, id);
      if (!found) throw new ApiError('remission_not_found', 'No remission with this id for this taxpayer.');
      return found;
    },

    async list(accountId: string, taxpayerId: string) {
      if (!(await taxpayerStore.find(db, accountId, taxpayerId)))
        throw new ApiError('taxpayer_not_found', 'No taxpayer with this id in your account.');
      return remissionStore.list(db, accountId, taxpayerId);
    },
  };
}
