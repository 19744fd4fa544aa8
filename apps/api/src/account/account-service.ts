import type { Db } from '@vf/db';
import { quotaStore, type AccountWithPlan } from '@vf/db';
import { quotaPeriod } from '@vf/chain';

export type AccountService = ReturnType<typeof createAccountService>;

export function createAccountService(deps: { db: Db; clock: () => Date }) {
  return {
    async overview(account: AccountWithPlan) {
      const { period, resetsAt } = quotaPeriod(deps.clock());
      const used = await quotaStore.used(deps.db, account.id, period);
      return { account, usage: { period, used, remaining: Math.max(0, account.plan.monthlyQuota - used), resetsAt } };
    },
  };
}
