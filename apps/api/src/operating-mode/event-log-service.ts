import { recordOtherEvent, SignerUnavailableError, type RecordSigner } from '@vf/chain';
import { eventLogStore, taxpayerStore, type Db, type StoredEvent } from '@vf/db';
import { ApiError } from '../errors/api-error';
import { isUuid } from '../http/is-uuid';
import type { SealAnswer } from '../idempotency/sealed-answer';
import { signingCertificateUnusable } from '../invoices/invoice-registration-service';

export type EventLogService = ReturnType<typeof createEventLogService>;

export interface EventQuery {
  system_id?: string;
  type?: string;
  from?: string;
  to?: string;
  /** Walk forwards from this place of the chain of events (or backwards with `order=desc`). */
  after_seq?: number;
  order: 'asc' | 'desc';
  limit: number;
}

const taxpayerNotFound = () => new ApiError('taxpayer_not_found', 'No taxpayer with this id in your account.');
/** An event the taxpayer records itself: type 90, other. */
export interface OtherEventBody {
  system_id: string;
  description: string;
}

const eventNotFound = () => new ApiError('event_not_found', 'No event with this id in the taxpayer’s event log.');

/**
 * A taxpayer's NO VERI*FACTU event log (its current environment's): read, and an event of type 90 (other) recorded by
 * the taxpayer; every other event is written by the chain itself.
 */
export function createEventLogService(deps: { db: Db; signer: RecordSigner; clock: () => Date }) {
  const { db } = deps;

  async function chainOf(accountId: string, taxpayerId: string): Promise<string | undefined> {
    if (!isUuid(taxpayerId)) throw taxpayerNotFound();
    const taxpayer = await taxpayerStore.find(db, accountId, taxpayerId);
    if (!taxpayer) throw taxpayerNotFound();
    return taxpayer.chainId ?? undefined;
  }

  return {
    async list(accountId: string, taxpayerId: string, query: EventQuery): Promise<StoredEvent[]> {
      const chainId = await chainOf(accountId, taxpayerId);
      if (!chainId) return [];
      const filters = {
        computerSystemId: query.system_id,
        type: query.type,
        from: query.from ? new Date(query.from) : undefined,
        to: query.to ? new Date(query.to) : undefined,
        afterSeq: query.after_seq,
      };
      return eventLogStore.list(db, chainId, filters, query.limit, query.order);
    },

    /** `answer`: with an Idempotency-Key, the answer kept in the transaction of the event. */
    async recordOther(accountId: string, taxpayerId: string, body: OtherEventBody, answer?: SealAnswer<StoredEvent>): Promise<StoredEvent> {
      const chainId = await chainOf(accountId, taxpayerId);
      const noSystem = new ApiError(
        'system_not_found',
        'No computer system of your account with this id can keep this taxpayer’s records (it works only as VERI*FACTU, or serves another taxpayer).',
      );
      if (!chainId || !isUuid(body.system_id)) throw noSystem;
      try {
        const target = { chainId, systemId: body.system_id, description: body.description };
        const event = await recordOtherEvent(db, target, { signer: deps.signer, now: deps.clock(), answer });
        if (!event) throw noSystem;
        return event;
      } catch (err) {
        // An event is signed: without a certificate nothing is written.
        if (err instanceof SignerUnavailableError) throw signingCertificateUnusable(err.message);
        throw err;
      }
    },

    async get(accountId: string, taxpayerId: string, eventId: string): Promise<StoredEvent> {
      const chainId = await chainOf(accountId, taxpayerId);
      if (!chainId || !isUuid(eventId)) throw eventNotFound();
      const event = await eventLogStore.find(db, chainId, eventId);
      if (!event) throw eventNotFound();
      return event;
    },
  };
}
