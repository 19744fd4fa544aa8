import { createTaxIdChecker, TaxIdCheckRefusal, type TaxIdCheckInput } from '@vf/tax-ids';
import { ApiError } from '../errors/api-error';

export type { TaxIdAnswer, TaxIdQuestion } from '@vf/tax-ids';

/** The tax ID checks as the API answers them: a check the deployment cannot make is a problem with its code. */
export function createTaxIdCheckService(deps: Parameters<typeof createTaxIdChecker>[0]) {
  const checker = createTaxIdChecker(deps);
  return {
    async check(accountId: string, input: TaxIdCheckInput) {
      try {
        return await checker.check(accountId, input);
      } catch (error) {
        if (error instanceof TaxIdCheckRefusal) throw new ApiError(error.code, error.message);
        throw error;
      }
    },
    evidence: checker.evidence,
  };
}

export type TaxIdCheckService = ReturnType<typeof createTaxIdCheckService>;
