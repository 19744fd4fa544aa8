import pLimit from 'p-limit';
import { readViesVatNumber, type ViesVatNumber } from '@vf/authority-client';
import type { ViesTaxIdAnswer } from '@vf/contract';
import { censusCheckStore, type Db, type TaxIdCheck } from '@vf/db';
import { taxIdChecksTotal, taxIdServiceDuration } from '@vf/metrics';
import { TaxIdCheckRefusal } from './tax-id-check-refusal';
import type { ViesGateway } from './vies-gateway';

/** VIES limits concurrent requests per member state (MS_MAX_CONCURRENT_REQ): a list goes a few at a time. */
const AT_ONCE = 4;

function viesNumber(vatNumber: string): ViesVatNumber {
  const read = readViesVatNumber(vatNumber);
  // The request schema read it already: this is a number the API itself let through.
  if ('refused' in read) throw new Error(`VAT number not readable: ${read.refused}`);
  return read;
}

/**
 * Asks VIES about each VAT number (each distinct one once) and records the account's evidence: the number, the
 * answer, the digest of the request, VIES's consultation number or fault code. No trader name is kept.
 */
export async function checkVatNumbers(
  deps: { db: Db; vies?: ViesGateway; clock: () => Date },
  accountId: string,
  vatNumbers: readonly string[],
  requester: ViesVatNumber | undefined,
): Promise<ViesTaxIdAnswer[]> {
  if (vatNumbers.length === 0) return [];
  const { vies } = deps;
  if (!vies) throw new TaxIdCheckRefusal('vies_unavailable', 'This deployment is not set up to reach VIES.');
  const limit = pLimit(AT_ONCE);
  const distinct = [...new Set(vatNumbers)];
  const asked = await Promise.all(
    distinct.map((vatNumber) =>
      limit(async () => {
        const timer = taxIdServiceDuration.startTimer({ service: 'vies' });
        const outcome = await vies.ask(viesNumber(vatNumber), requester).catch((error: unknown) => {
          timer({ outcome: 'failed' });
          throw error;
        });
        timer({ outcome: outcome.result === 'unknown' ? 'unknown' : 'answered' });
        const answer: ViesTaxIdAnswer = {
          vatNumber,
          result: outcome.result,
          detail: outcome.detail,
          ...(outcome.faultCode && { faultCode: outcome.faultCode }),
          ...(outcome.requestIdentifier && { requestIdentifier: outcome.requestIdentifier }),
          ...(outcome.traderName && { traderName: outcome.traderName }),
          source: 'vies',
          checkedAt: deps.clock(),
        };
        return [vatNumber, { answer, digest: outcome.requestDigest }] as const;
      }),
    ),
  );
  const byNumber = new Map(asked);
  const evidence: TaxIdCheck[] = vatNumbers.map((vatNumber) => {
    const { answer, digest } = byNumber.get(vatNumber)!;
    return {
      taxId: vatNumber,
      result: answer.result,
      detail: answer.detail,
      source: 'vies',
      requestDigest: digest,
      requestIdentifier: answer.requestIdentifier ?? null,
      faultCode: answer.faultCode ?? null,
      checkedAt: answer.checkedAt,
    };
  });
  await censusCheckStore.recordChecks(deps.db, accountId, evidence);
  for (const e of evidence) taxIdChecksTotal.inc({ source: 'vies', result: e.result });
  return vatNumbers.map((vatNumber) => byNumber.get(vatNumber)!.answer);
}
