import type { Db } from '@vf/db';
import { accountStore, idempotencyStore, quotaStore, type AccountWithPlan } from '@vf/db';
import { quotaPeriod } from '@vf/chain';
import type { AccountSettings, AccountUsage } from '@vf/contract';
import type { SealAnswer } from '../idempotency/sealed-answer';

/** An account with this month's usage of its plan: what GET /account answers. */
export interface AccountWithUsage {
  account: AccountWithPlan;
  usage: AccountUsage;
}

export type AccountService = ReturnType<typeof createAccountService>;

export function createAccountService(deps: { db: Db; clock: () => Date }) {
  return {
    async overview(account: AccountWithPlan): Promise<AccountWithUsage> {
      const { period, resetsAt } = quotaPeriod(deps.clock());
      const used = await quotaStore.used(deps.db, account.id, period);
      return { account, usage: { period, used, remaining: Math.max(0, account.plan.monthlyQuota - used), resetsAt } };
    },
    /** The settings changed, with an Idempotency-Key's answer kept in the same transaction (the usage read first). */
    async updateSettings(
      account: AccountWithPlan,
      settings: AccountSettings,
      answer?: SealAnswer<AccountWithUsage>,
    ): Promise<AccountWithUsage> {
      const { usage } = await this.overview(account);
      const updated = { account: { ...account, recipientCheck: settings.recipient_check }, usage };
      return deps.db.transaction(async (tx) => {
        await accountStore.setRecipientCheck(tx, account.id, settings.recipient_check);
        if (answer) await idempotencyStore.keep(tx, answer(updated));
        return updated;
      });
    },
  };
}
