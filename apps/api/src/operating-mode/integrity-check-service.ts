import { runIntegrityCheck, SignerUnavailableError, type RecordSigner } from '@vf/chain';
import type { IntegrityCheckBody, IntegrityCheckReport } from '@vf/contract';
import { keptRecordStore, taxpayerStore, type Db, type OpenAlarm } from '@vf/db';
import { ApiError } from '../errors/api-error';
import type { SealAnswer } from '../idempotency/sealed-answer';
import { isUuid } from '../http/is-uuid';
import { signingCertificateUnusable } from '../invoices/invoice-registration-service';

export type IntegrityCheckService = ReturnType<typeof createIntegrityCheckService>;

const taxpayerNotFound = () => new ApiError('taxpayer_not_found', 'No taxpayer with this id in your account.');

/** On-demand checks of a taxpayer's chains (its current environment's), and the alarms they and the appends raise. */
export function createIntegrityCheckService(deps: { db: Db; signer: RecordSigner; clock: () => Date }) {
  const { db } = deps;

  async function chainOf(accountId: string, taxpayerId: string) {
    if (!isUuid(taxpayerId)) throw taxpayerNotFound();
    const taxpayer = await taxpayerStore.find(db, accountId, taxpayerId);
    if (!taxpayer?.chainId) throw taxpayerNotFound();
    return { chainId: taxpayer.chainId, length: taxpayer.chainLength };
  }

  return {
    /** `answer`: with an Idempotency-Key, the report kept in the transaction of the check's events. */
    async check(
      accountId: string,
      taxpayerId: string,
      body: IntegrityCheckBody,
      answer?: SealAnswer<IntegrityCheckReport>,
    ): Promise<IntegrityCheckReport> {
      const chain = await chainOf(accountId, taxpayerId);
      const request = { ...chain, subject: body.subject, systemId: body.system_id, fromSeq: body.from_seq, toSeq: body.to_seq };
      try {
        return await runIntegrityCheck(db, request, { signer: deps.signer, now: deps.clock(), answer });
      } catch (err) {
        // A check writes signed events: without a certificate it writes nothing.
        if (err instanceof SignerUnavailableError) throw signingCertificateUnusable(err.message);
        throw err;
      }
    },

    async alarms(accountId: string, taxpayerId: string): Promise<OpenAlarm[]> {
      return keptRecordStore.openAlarms(db, (await chainOf(accountId, taxpayerId)).chainId);
    },
  };
}
