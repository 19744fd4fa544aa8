import type { Db } from '@vf/db';
import { accountStore, type AccountWithPlan } from '@vf/db';
import { dashboardOverviewStore } from '@vf/db';
import { sendStateStore } from '@vf/db';
import type { AccountService } from '../../account/account-service';
import { monthlyRegistrations } from './monthly-registrations';

export type OverviewService = ReturnType<typeof createOverviewService>;

const LATEST_PROBLEMS = 10;

export function createOverviewService(deps: { db: Db; accounts: AccountService }) {
  const { db } = deps;

  async function account(accountId: string): Promise<AccountWithPlan> {
    const found = await accountStore.findById(db, accountId);
    if (!found) throw new Error(`signed-in account ${accountId} no longer exists`);
    return found;
  }

  return {
    account,

    /** Everything on the overview page, read in parallel. */
    async overview(accountId: string, now: Date) {
      const [usage, counts, problems, pending, outage, months] = await Promise.all([
        account(accountId).then((a) => deps.accounts.overview(a)),
        dashboardOverviewStore.countsByStatus(db, accountId),
        dashboardOverviewStore.latestProblems(db, accountId, LATEST_PROBLEMS),
        dashboardOverviewStore.pendingByTaxpayer(db, accountId),
        sendStateStore.outageSummary(db, accountId),
        monthlyRegistrations(db, accountId, now),
      ]);
      return { account: usage.account, usage: usage.usage, counts, problems, pending, outage, months };
    },
  };
}
