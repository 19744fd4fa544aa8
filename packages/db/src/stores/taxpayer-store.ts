import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { chains, invoices, taxpayers } from '../schema';
import { afterPageKey, pageKeyColumns, type PageKey } from './page-key';
import { translatingDbErrors } from './store-error';

/** The certificate columns a save writes: all set together, or all null (social-collaborator mode). */
export interface TaxpayerCertificateColumns {
  certificateSource: 'path' | 'upload' | null;
  certificatePath: string | null;
  certificateP12: Buffer | null;
  certificatePassword: Buffer | null;
  certificateSubject: string | null;
  certificateNif: string | null;
  certificateNotBefore: Date | null;
  certificateNotAfter: Date | null;
}

export interface NewTaxpayer extends Partial<TaxpayerCertificateColumns> {
  accountId: string;
  nif: string;
  name: string;
  isProduction: boolean;
}

export type TaxpayerPatch = Partial<Pick<NewTaxpayer, 'nif' | 'name' | 'isProduction'> & TaxpayerCertificateColumns>;

/** A taxpayer as shown to its account: never the encrypted certificate or password. */
export interface TaxpayerView {
  id: string;
  nif: string;
  name: string;
  isProduction: boolean;
  certificateSource: string | null;
  certificatePath: string | null;
  certificateSubject: string | null;
  certificateNif: string | null;
  certificateNotBefore: Date | null;
  certificateNotAfter: Date | null;
  /** The chain of the taxpayer's current environment (null only before its claim is written). */
  chainId: string | null;
  chainLength: number;
  lastHash: string | null;
  lastRecordAt: Date | null;
  /** The current chain's operating mode as stored (null only before its claim is written); see operating-mode-store.ts. */
  operatingMode: 'verifactu' | 'no_verifactu' | null;
  verifactuUntil: string | null;
  modeSince: Date | null;
  /** An anomaly found in the chain is not cleared (NO VERI*FACTU's integrity alarm). */
  integrityAlarm: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** The chain head read under the row lock while a record is appended. */
export interface LockedTaxpayer {
  id: string;
  nif: string;
  name: string;
  isProduction: boolean;
}

const viewColumns = {
  id: taxpayers.id,
  nif: taxpayers.nif,
  name: taxpayers.name,
  isProduction: taxpayers.isProduction,
  certificateSource: taxpayers.certificateSource,
  certificatePath: taxpayers.certificatePath,
  certificateSubject: taxpayers.certificateSubject,
  certificateNif: taxpayers.certificateNif,
  certificateNotBefore: taxpayers.certificateNotBefore,
  certificateNotAfter: taxpayers.certificateNotAfter,
  chainId: chains.id,
  chainLength: sql<number>`coalesce(${chains.chainLength}, 0)`.mapWith(Number),
  lastHash: invoices.hash,
  lastRecordAt: invoices.generatedAt,
  operatingMode: chains.operatingMode,
  verifactuUntil: chains.verifactuUntil,
  modeSince: chains.modeSince,
  integrityAlarm: sql<boolean>`exists (select 1 from integrity_alarms a where a.chain_id = ${chains.id} and a.cleared_at is null)`,
  createdAt: taxpayers.createdAt,
  updatedAt: taxpayers.updatedAt,
};

// The current chain: the one of the taxpayer's present environment.
const currentChain = and(eq(chains.taxpayerId, taxpayers.id), eq(chains.isProduction, taxpayers.isProduction), eq(chains.scenario, false));

function selectViews(db: DbOrTx) {
  return db.select(viewColumns).from(taxpayers).leftJoin(chains, currentChain).leftJoin(invoices, eq(invoices.id, chains.lastInvoiceId));
}

function owned(accountId: string, id: string) {
  return and(eq(taxpayers.accountId, accountId), eq(taxpayers.id, id));
}

export const taxpayerStore = {
  /** Throws StoreError('conflict') when the account already has this NIF. */
  async insert(db: DbOrTx, values: NewTaxpayer): Promise<string> {
    const [row] = await translatingDbErrors(db.insert(taxpayers).values(values).returning({ id: taxpayers.id }));
    return row.id;
  },

  list(db: DbOrTx, accountId: string): Promise<TaxpayerView[]> {
    return selectViews(db).where(eq(taxpayers.accountId, accountId)).orderBy(asc(taxpayers.createdAt), asc(taxpayers.id));
  },

  /** Oldest first; up to `limit` rows after `after`. */
  listPage(db: DbOrTx, accountId: string, after: PageKey | undefined, limit: number): Promise<(TaxpayerView & { pageKey: PageKey })[]> {
    return db
      .select({ ...viewColumns, pageKey: pageKeyColumns(taxpayers.createdAt, taxpayers.id) })
      .from(taxpayers)
      .leftJoin(chains, currentChain)
      .leftJoin(invoices, eq(invoices.id, chains.lastInvoiceId))
      .where(and(eq(taxpayers.accountId, accountId), after ? afterPageKey(taxpayers.createdAt, taxpayers.id, after, 'asc') : undefined))
      .orderBy(asc(taxpayers.createdAt), asc(taxpayers.id))
      .limit(limit);
  },

  async find(db: DbOrTx, accountId: string, id: string): Promise<TaxpayerView | undefined> {
    const [row] = await selectViews(db).where(owned(accountId, id)).limit(1);
    return row;
  },

  async findByNif(db: DbOrTx, accountId: string, nif: string): Promise<TaxpayerView | undefined> {
    const [row] = await selectViews(db)
      .where(and(eq(taxpayers.accountId, accountId), eq(taxpayers.nif, nif)))
      .limit(1);
    return row;
  },

  /** Returns false when no such taxpayer belongs to the account. Throws StoreError('conflict') on a NIF clash. */
  async update(db: DbOrTx, accountId: string, id: string, patch: TaxpayerPatch): Promise<boolean> {
    const rows = await translatingDbErrors(
      db
        .update(taxpayers)
        .set({ ...patch, updatedAt: new Date() })
        .where(owned(accountId, id))
        .returning({ id: taxpayers.id }),
    );
    return rows.length > 0;
  },

  /** Returns false when not found. Throws StoreError('referenced') while invoices point at it. */
  async delete(db: DbOrTx, accountId: string, id: string): Promise<boolean> {
    const rows = await translatingDbErrors(db.delete(taxpayers).where(owned(accountId, id)).returning({ id: taxpayers.id }));
    return rows.length > 0;
  },

  /**
   * SELECT ... FOR UPDATE: holds the taxpayer still while its NIF, name or environment change. Appends take no lock on
   * it: their write is refused when the taxpayer's environment no longer matches the chain read (chain-append-write-store.ts).
   */
  async lockForUpdate(db: DbOrTx, accountId: string, id: string): Promise<LockedTaxpayer | undefined> {
    const [row] = await db
      .select({
        id: taxpayers.id,
        nif: taxpayers.nif,
        name: taxpayers.name,
        isProduction: taxpayers.isProduction,
      })
      .from(taxpayers)
      .where(owned(accountId, id))
      .for('update');
    return row;
  },
};
