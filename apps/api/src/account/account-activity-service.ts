import type { AccountOverview } from '@vf/contract';
import type { Db } from '@vf/db';
import { accountStore, invoiceStateStore, invoiceStatisticsStore, sendStateStore, type AccountWithPlan } from '@vf/db';
import type { AccountService } from './account-service';
import { monthlyRegistrations } from './monthly-registrations';

export type AccountActivityService = ReturnType<typeof createAccountActivityService>;

const LATEST_PROBLEMS = 10;

/** An account and what is happening in it: usage, invoices by status, problems, what waits to be sent. */
export function createAccountActivityService(deps: { db: Db; accounts: AccountService }) {
  const { db } = deps;

  async function account(accountId: string): Promise<AccountWithPlan> {
    const found = await accountStore.findById(db, accountId);
    if (!found) throw new Error(`signed-in account ${accountId} no longer exists`);
    return found;
  }

  return {
    account,

    /** Everything the dashboard's overview shows, read in parallel. */
    async overview(accountId: string, now: Date): Promise<AccountOverview> {
      const [usage, counts, problems, pending, outage, months] = await Promise.all([
        account(accountId).then((a) => deps.accounts.overview(a)),
        invoiceStatisticsStore.countsByStatus(db, accountId),
        invoiceStateStore.latestProblems(db, accountId, LATEST_PROBLEMS),
        sendStateStore.pendingByTaxpayer(db, accountId),
        sendStateStore.outageSummary(db, accountId),
        monthlyRegistrations(db, accountId, now),
      ]);
      return { account: usage.account, usage: usage.usage, counts, problems, pending, outage, months };
    },
  };
}
