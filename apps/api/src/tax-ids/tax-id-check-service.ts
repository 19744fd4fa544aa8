import { invoiceStore } from '@vf/db';
import type { TaxIdAnswer, TaxIdCheckInput } from '@vf/contract';
import { createTaxIdChecker, TaxIdCheckRefusal } from '@vf/tax-ids';
import { ApiError } from '../errors/api-error';
import { renderTaxIdAnswer } from './render-tax-id-answer';

/** The tax ID checks as the API answers them: a check the deployment cannot make is a problem with its code. */
async function answering<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof TaxIdCheckRefusal) throw new ApiError(error.code, error.message);
    throw error;
  }
}

export function createTaxIdCheckService(deps: Parameters<typeof createTaxIdChecker>[0]) {
  const checker = createTaxIdChecker(deps);
  return {
    /** A check asked for itself: within the plan's monthly allowance of checks. */
    async checkWithinAllowance(accountId: string, input: TaxIdCheckInput) {
      return answering(async () => {
        await checker.assertAllowance(accountId, input.taxIds.length);
        return checker.check(accountId, input);
      });
    },
    /** A registration's recipients: counted, never refused for the allowance (the registration has its own quota). */
    check(accountId: string, input: TaxIdCheckInput) {
      return answering(() => checker.check(accountId, input));
    },
    assertAllowance(accountId: string, count: number) {
      return answering(() => checker.assertAllowance(accountId, count));
    },
    evidence: checker.evidence,
    /** Keeps on registered invoices what the census said of their recipients (those with none asked keep nothing). */
    keepOnInvoices(checked: { invoiceId: string; answers: TaxIdAnswer[] }[]): Promise<void> {
      const kept = checked.filter((c) => c.answers.length > 0);
      return invoiceStore.keepRecipientChecks(
        deps.db,
        kept.map((c) => ({ invoiceId: c.invoiceId, answers: c.answers.map(renderTaxIdAnswer) })),
      );
    },
  };
}

export type TaxIdCheckService = ReturnType<typeof createTaxIdCheckService>;
