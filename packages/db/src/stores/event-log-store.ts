import { and, asc, eq, gte, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import type { RecordSystem } from '../records/chain-record-shape';
import { chains, computerSystems, eventChains, sifEvents, taxpayers } from '../schema';
import { rawRows } from './raw-rows';

/** The last event of a chain of events, as its successor links to it. */
export interface LastEvent {
  id: string;
  type: string;
  generatedAt: Date;
  generatedAtLiteral: string;
  hash: string;
}

/** A chain of events held (its head row locked) while an event is appended, with whose events they are. */
export interface EventChainHead {
  eventChainId: string;
  chainId: string;
  length: number;
  last: LastEvent | undefined;
  taxpayer: { id: string; nif: string; name: string };
  system: RecordSystem & { id: string };
  /** IndicadorMultiplesOT: the taxpayer's account keeps more than one taxpayer. */
  severalTaxpayers: boolean;
}

export interface NewEvent {
  id: string;
  type: string;
  generatedAt: Date;
  generatedAtLiteral: string;
  hash: string;
  previousHash: string | null;
  /** The period a summary covers (type 10 only). */
  period: { start: Date; end: Date } | null;
  xml: string;
}

/** An event as listed and read: its place, its facts and its signed XML. */
export interface StoredEvent {
  id: string;
  eventChainId: string;
  computerSystemId: string;
  seq: number;
  type: string;
  generatedAt: Date;
  generatedAtLiteral: string;
  hash: string;
  previousHash: string | null;
  periodStart: Date | null;
  xml: string;
}

interface HeadRow {
  eventChainId: string;
  chainId: string;
  length: number;
  lastId: string | null;
  lastType: string | null;
  lastAt: string | null;
  lastLiteral: string | null;
  lastHash: string | null;
  taxpayerId: string;
  nif: string;
  name: string;
  systemId: string;
  vendorName: string;
  vendorNif: string;
  systemName: string;
  systemCode: string;
  version: string;
  installationNumber: string;
  onlySupportsVerifactu: boolean;
  supportsMultipleTaxpayers: boolean;
  severalTaxpayers: boolean;
}

const eventColumns = {
  id: sifEvents.id,
  eventChainId: sifEvents.eventChainId,
  computerSystemId: eventChains.computerSystemId,
  seq: sifEvents.seq,
  type: sifEvents.eventType,
  generatedAt: sifEvents.generatedAt,
  generatedAtLiteral: sifEvents.generatedAtLiteral,
  hash: sifEvents.hash,
  previousHash: sifEvents.previousHash,
  periodStart: sifEvents.periodStart,
  xml: sifEvents.xml,
};

/** What a listing of a taxpayer chain's events may narrow to. */
export interface EventFilters {
  computerSystemId?: string;
  type?: string;
  from?: Date;
  to?: Date;
  /** Events after this place of their chain (forwards) or before it (backwards), for paging and walking. */
  afterSeq?: number;
}

export const eventLogStore = {
  /**
   * The chain of events of a taxpayer chain and a system, created when it has none, its head row locked (FOR UPDATE)
   * until the transaction ends: events of one chain are appended one at a time, in order.
   */
  async lockHead(tx: DbOrTx, chainId: string, systemId: string): Promise<EventChainHead | undefined> {
    await tx.insert(eventChains).values({ chainId, computerSystemId: systemId }).onConflictDoNothing();
    const [r] = await rawRows<HeadRow>(
      tx,
      sql`SELECT ec.id AS event_chain_id, ec.chain_id, ec.length, e.id AS last_id, e.event_type AS last_type,
                 e.generated_at AS last_at, e.generated_at_literal AS last_literal, e.hash AS last_hash,
                 t.id AS taxpayer_id, t.nif, t.name, s.id AS system_id, s.vendor_name, s.vendor_nif, s.name AS system_name,
                 s.system_code, s.version, s.installation_number, s.only_supports_verifactu, s.supports_multiple_taxpayers,
                 EXISTS (SELECT 1 FROM taxpayers o WHERE o.account_id = t.account_id AND o.id <> t.id) AS several_taxpayers
          FROM event_chains ec
          JOIN chains c ON c.id = ec.chain_id
          JOIN taxpayers t ON t.id = c.taxpayer_id
          JOIN computer_systems s ON s.id = ec.computer_system_id
          LEFT JOIN sif_events e ON e.id = ec.last_event_id
          WHERE ec.chain_id = ${chainId} AND ec.computer_system_id = ${systemId}
          FOR UPDATE OF ec`,
    );
    if (!r) return undefined;
    return {
      eventChainId: r.eventChainId,
      chainId: r.chainId,
      length: r.length,
      last:
        r.lastId && r.lastType && r.lastAt && r.lastLiteral && r.lastHash
          ? { id: r.lastId, type: r.lastType, generatedAt: new Date(r.lastAt), generatedAtLiteral: r.lastLiteral, hash: r.lastHash }
          : undefined,
      taxpayer: { id: r.taxpayerId, nif: r.nif, name: r.name },
      system: {
        id: r.systemId,
        vendorName: r.vendorName,
        vendorNif: r.vendorNif,
        name: r.systemName,
        systemCode: r.systemCode,
        version: r.version,
        installationNumber: r.installationNumber,
        onlySupportsVerifactu: r.onlySupportsVerifactu,
        supportsMultipleTaxpayers: r.supportsMultipleTaxpayers,
      },
      severalTaxpayers: r.severalTaxpayers,
    };
  },

  /**
   * The event appended after the head the caller holds. False when it is a summary of a period already summarised
   * (the unique index): nothing was written, the head did not move.
   */
  async append(tx: DbOrTx, head: EventChainHead, event: NewEvent): Promise<boolean> {
    const inserted = await tx
      .insert(sifEvents)
      .values({
        id: event.id,
        eventType: event.type,
        generatedAt: event.generatedAt,
        generatedAtLiteral: event.generatedAtLiteral,
        hash: event.hash,
        previousHash: event.previousHash,
        periodStart: event.period?.start ?? null,
        periodEnd: event.period?.end ?? null,
        xml: event.xml,
        eventChainId: head.eventChainId,
        seq: head.length + 1,
      })
      .onConflictDoNothing()
      .returning({ id: sifEvents.id });
    if (inserted.length === 0) return false;
    await tx
      .update(eventChains)
      .set({ length: head.length + 1, lastEventId: event.id })
      .where(eq(eventChains.id, head.eventChainId));
    return true;
  },

  /**
   * The systems of the chain's account that can keep the taxpayer's NO VERI*FACTU records: able to work both ways,
   * and for the taxpayer (several taxpayers, or this one), with the chains of events they already have.
   */
  async systemsFor(db: DbOrTx, chainId: string): Promise<string[]> {
    const rows = await db
      .select({ id: computerSystems.id })
      .from(chains)
      .innerJoin(taxpayers, eq(taxpayers.id, chains.taxpayerId))
      .innerJoin(computerSystems, eq(computerSystems.accountId, taxpayers.accountId))
      .where(
        and(
          eq(chains.id, chainId),
          eq(computerSystems.onlySupportsVerifactu, false),
          or(
            eq(computerSystems.supportsMultipleTaxpayers, true),
            isNull(computerSystems.soleTaxpayerId),
            eq(computerSystems.soleTaxpayerId, chains.taxpayerId),
          ),
        ),
      );
    const existing = await db.select({ id: eventChains.computerSystemId }).from(eventChains).where(eq(eventChains.chainId, chainId));
    return [...new Set([...rows.map((r) => r.id), ...existing.map((r) => r.id)])];
  },

  /** The type of the last start (01) or end (02) of NO VERI*FACTU operation in a chain of events, if any. */
  async lastMarker(db: DbOrTx, eventChainId: string): Promise<string | undefined> {
    const [row] = await db
      .select({ type: sifEvents.eventType })
      .from(sifEvents)
      .where(and(eq(sifEvents.eventChainId, eventChainId), or(eq(sifEvents.eventType, '01'), eq(sifEvents.eventType, '02'))))
      .orderBy(sql`${sifEvents.seq} DESC`)
      .limit(1);
    return row?.type;
  },

  /** The event chains of a taxpayer chain, by system. */
  chainsOf(db: DbOrTx, chainId: string): Promise<{ id: string; computerSystemId: string; length: number }[]> {
    return db
      .select({ id: eventChains.id, computerSystemId: eventChains.computerSystemId, length: eventChains.length })
      .from(eventChains)
      .where(eq(eventChains.chainId, chainId));
  },

  /** A taxpayer chain's events in chain order (per system), narrowed by `filters`, at most `limit`. */
  list(db: DbOrTx, chainId: string, filters: EventFilters, limit: number, order: 'asc' | 'desc' = 'asc'): Promise<StoredEvent[]> {
    const where: (SQL | undefined)[] = [
      eq(eventChains.chainId, chainId),
      filters.computerSystemId ? eq(eventChains.computerSystemId, filters.computerSystemId) : undefined,
      filters.type ? eq(sifEvents.eventType, filters.type) : undefined,
      filters.from ? gte(sifEvents.generatedAt, filters.from) : undefined,
      filters.to ? lt(sifEvents.generatedAt, filters.to) : undefined,
      filters.afterSeq !== undefined
        ? order === 'asc'
          ? sql`${sifEvents.seq} > ${filters.afterSeq}`
          : sql`${sifEvents.seq} < ${filters.afterSeq}`
        : undefined,
    ];
    return db
      .select(eventColumns)
      .from(sifEvents)
      .innerJoin(eventChains, eq(eventChains.id, sifEvents.eventChainId))
      .where(and(...where))
      .orderBy(...(order === 'asc' ? [asc(sifEvents.seq)] : [sql`${sifEvents.seq} DESC`]), asc(sifEvents.eventChainId))
      .limit(limit);
  },

  /** One event of a taxpayer chain. */
  async find(db: DbOrTx, chainId: string, eventId: string): Promise<StoredEvent | undefined> {
    const [row] = await db
      .select(eventColumns)
      .from(sifEvents)
      .innerJoin(eventChains, eq(eventChains.id, sifEvents.eventChainId))
      .where(and(eq(eventChains.chainId, chainId), eq(sifEvents.id, eventId)));
    return row;
  },

  /** How many events of each type a chain of events got in [from, to). */
  async countsBetween(db: DbOrTx, eventChainId: string, from: Date, to: Date): Promise<{ type: string; count: number }[]> {
    const rows = await db
      .select({ type: sifEvents.eventType, count: sql<number>`count(*)::int` })
      .from(sifEvents)
      .where(and(eq(sifEvents.eventChainId, eventChainId), gte(sifEvents.generatedAt, from), lt(sifEvents.generatedAt, to)))
      .groupBy(sifEvents.eventType)
      .orderBy(asc(sifEvents.eventType));
    return rows;
  },
};
