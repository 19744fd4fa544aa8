import { eventLogStore, taxpayerStore, type Db, type StoredEvent } from '@vf/db';
import { ApiError } from '../errors/api-error';
import { isUuid } from '../http/is-uuid';

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
const eventNotFound = () => new ApiError('event_not_found', 'No event with this id in the taxpayer’s event log.');

/** A taxpayer's NO VERI*FACTU event log (its current environment's), read-only: events are written by the chain. */
export function createEventLogService(deps: { db: Db }) {
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

    async get(accountId: string, taxpayerId: string, eventId: string): Promise<StoredEvent> {
      const chainId = await chainOf(accountId, taxpayerId);
      if (!chainId || !isUuid(eventId)) throw eventNotFound();
      const event = await eventLogStore.find(db, chainId, eventId);
      if (!event) throw eventNotFound();
      return event;
    },
  };
}
