import type { AccountWithPlan } from '@vf/db';
import { ApiError } from '../errors/api-error';
import { quotaPeriod } from '@vf/chain';

/** 429 with the figures a client needs: the quota, what is used, and when the count starts again. */
export function quotaExceeded(account: Pick<AccountWithPlan, 'plan'>, used: number, now: Date): ApiError {
  const { period, resetsAt } = quotaPeriod(now);
  const quota = account.plan.monthlyQuota;
  return new ApiError('quota_exceeded', `Your ${account.plan.id} plan allows ${quota} registrations per month; ${period} is used up.`, {
    extensions: { quota, used, period, resets_at: resetsAt.toISOString() },
    headers: { 'Retry-After': String(Math.max(1, Math.ceil((resetsAt.getTime() - now.getTime()) / 1000))) },
  });
}
