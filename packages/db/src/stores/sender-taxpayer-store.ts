import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { chains, taxpayers } from '../schema';

/** What the sender needs of a taxpayer: who it is and the (encrypted) client certificate, if it has one. */
export interface SenderTaxpayer {
  id: string;
  nif: string;
  name: string;
  /** AES-256-GCM envelopes; both null in social-collaborator mode. */
  certificateP12: Buffer | null;
  certificatePassword: Buffer | null;
  /** Changes whenever the certificate does: part of the TLS agent cache key. */
  updatedAt: Date;
}

const senderColumns = {
  id: taxpayers.id,
  nif: taxpayers.nif,
  name: taxpayers.name,
  certificateP12: taxpayers.certificateP12,
  certificatePassword: taxpayers.certificatePassword,
  updatedAt: taxpayers.updatedAt,
};

export const senderTaxpayerStore = {
  /** The taxpayer a chain belongs to: its certificate signs every message of the chain. */
  async forChain(db: DbOrTx, chainId: string): Promise<SenderTaxpayer | undefined> {
    const [row] = await db
      .select(senderColumns)
      .from(chains)
      .innerJoin(taxpayers, eq(taxpayers.id, chains.taxpayerId))
      .where(eq(chains.id, chainId));
    return row;
  },

  /** A taxpayer by id: whose certificate signs its NO VERI*FACTU records as they are appended. */
  async byId(db: DbOrTx, taxpayerId: string): Promise<SenderTaxpayer | undefined> {
    const [row] = await db.select(senderColumns).from(taxpayers).where(eq(taxpayers.id, taxpayerId));
    return row;
  },

  /** A taxpayer of the account, to ask the authority under its certificate; undefined when it is not the account's. */
  async ofAccount(db: DbOrTx, accountId: string, taxpayerId: string): Promise<SenderTaxpayer | undefined> {
    const [row] = await db
      .select(senderColumns)
      .from(taxpayers)
      .where(and(eq(taxpayers.accountId, accountId), eq(taxpayers.id, taxpayerId)));
    return row;
  },
};
