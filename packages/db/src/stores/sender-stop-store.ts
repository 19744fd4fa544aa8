import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { senderStops } from '../schema';
import { submissionResumeStore, type ResumedRecord } from './submission-resume-store';

export interface SenderStop {
  certificateFingerprint: string;
  certificateSubject: string;
  code: number;
  message: string;
  stoppedAt: Date;
}

/** Certificates whose access the authority suspended (4141): no send goes under one until an operator resumes it. */
export const senderStopStore = {
  /** Stops every send under the certificate; a second stop of the same certificate keeps the first. */
  async stop(tx: DbOrTx, stop: Omit<SenderStop, 'stoppedAt'>): Promise<void> {
    await tx.insert(senderStops).values(stop).onConflictDoNothing({ target: senderStops.certificateFingerprint });
  },

  async find(db: DbOrTx, fingerprint: string): Promise<SenderStop | undefined> {
    const [row] = await db.select().from(senderStops).where(eq(senderStops.certificateFingerprint, fingerprint));
    return row;
  },

  list(db: DbOrTx): Promise<SenderStop[]> {
    return db.select().from(senderStops).orderBy(asc(senderStops.stoppedAt));
  },

  /**
   * The operator's resume: the stop goes and the records it held go back in the queue (the reconciler gives their
   * chains a job). Undefined when the certificate was not stopped. Run in a transaction.
   */
  async resume(tx: DbOrTx, fingerprint: string): Promise<ResumedRecord[] | undefined> {
    const deleted = await tx
      .delete(senderStops)
      .where(eq(senderStops.certificateFingerprint, fingerprint))
      .returning({ fingerprint: senderStops.certificateFingerprint });
    if (deleted.length === 0) return undefined;
    return submissionResumeStore.resumeAfterSenderStop(tx);
  },
};
