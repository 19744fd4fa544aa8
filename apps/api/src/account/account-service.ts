import type { Db } from '@vf/db';
import { accountStore, quotaStore, type AccountWithPlan } from '@vf/db';
import { quotaPeriod } from '@vf/chain';

export type AccountService = ReturnType<typeof createAccountService>;

export function createAccountService(deps: { db: Db; clock: () => Date }) {
  return {
    async overview(account: AccountWithPlan) {
      const { period, resetsAt } = quotaPeriod(deps.clock());
      const used = await quotaStore.used(deps.db, account.id, period);
      return { account, usage: { period, used, remaining: Math.max(0, account.plan.monthlyQuota - used), resetsAt } };
    },
    async updateSettings(account: AccountWithPlan, settings: { recipient_check: 'warn' | 'refuse' | null }): Promise<AccountWithPlan> {
      await accountStore.setRecipientCheck(deps.db, account.id, settings.recipient_check);
      return { ...account, recipientCheck: settings.recipient_check };
    },
  };
}
