import { and, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { webhookDeliveries, webhookEndpoints } from '../schema';

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type NewWebhookDelivery = Pick<typeof webhookDeliveries.$inferInsert, 'endpointId' | 'invoiceId' | 'eventType' | 'payload'>;

function owned(accountId: string, id: string) {
  return and(eq(webhookEndpoints.accountId, accountId), eq(webhookEndpoints.id, id));
}

/** Endpoints and their delivery log, as the account sees them. */
export const webhookStore = {
  async insertEndpoint(db: DbOrTx, values: typeof webhookEndpoints.$inferInsert): Promise<WebhookEndpointRow> {
    const [row] = await db.insert(webhookEndpoints).values(values).returning();
    return row;
  },

  listEndpoints(db: DbOrTx, accountId: string): Promise<WebhookEndpointRow[]> {
    return db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.accountId, accountId))
      .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id));
  },

  async findEndpoint(db: DbOrTx, accountId: string, id: string): Promise<WebhookEndpointRow | undefined> {
    const [row] = await db.select().from(webhookEndpoints).where(owned(accountId, id));
    return row;
  },

  /** The secret envelope, once: only the first call after creation gets it. */
  async revealSecret(db: DbOrTx, accountId: string, id: string): Promise<Buffer | undefined> {
    const [row] = await db
      .update(webhookEndpoints)
      .set({ secretRevealedAt: sql`now()` })
      .where(and(owned(accountId, id), sql`${webhookEndpoints.secretRevealedAt} IS NULL`))
      .returning({ secret: webhookEndpoints.secret });
    return row?.secret;
  },

  async deleteEndpoint(db: DbOrTx, accountId: string, id: string): Promise<boolean> {
    const rows = await db.delete(webhookEndpoints).where(owned(accountId, id)).returning({ id: webhookEndpoints.id });
    return rows.length > 0;
  },

  async insertDelivery(db: DbOrTx, values: NewWebhookDelivery): Promise<WebhookDeliveryRow> {
    const [row] = await db.insert(webhookDeliveries).values(values).returning();
    return row;
  },

  /** Newest first. */
  recentDeliveries(db: DbOrTx, endpointId: string, limit: number): Promise<WebhookDeliveryRow[]> {
    return db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpointId))
      .orderBy(desc(webhookDeliveries.seq))
      .limit(limit);
  },
};
