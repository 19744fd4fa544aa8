import type { Logger } from 'pino';
import type { RegisteredInvoice, RegistrationItem } from '@vf/chain';
import type { AccountWithPlan, SealedAnswer } from '@vf/db';
import { ApiError } from '../errors/api-error';
import { countRegistrations } from '../metrics/registration-metrics';
import { clientOutcome, type ItemOutcome } from './chain-problems';
import type { RegistrationSteps } from './register-invoice';
import { unknownIds } from './unknown-ids';
import { warnIfNotWoken } from './warn-if-not-woken';

/**
 * A batch's items, each validated on its own; the valid items of one taxpayer are appended together, in array order.
 * One outcome per item, in order.
 */
export async function registerBatch(
  deps: RegistrationSteps,
  account: AccountWithPlan,
  bodies: unknown[],
  log: Logger,
  answerFor?: (at: number) => (r: RegisteredInvoice) => SealedAnswer,
): Promise<ItemOutcome[]> {
  const outcomes: ItemOutcome[] = new Array(bodies.length);
  const byTaxpayer = new Map<string, { at: number[]; items: RegistrationItem[] }>();
  bodies.forEach((body, at) => {
    let item: Omit<RegistrationItem, 'answer'>;
    try {
      item = deps.validateBody(body);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      outcomes[at] = { ok: false, error: err };
      return;
    }
    const refused = unknownIds(item);
    if (refused) {
      outcomes[at] = { ok: false, error: refused };
      return;
    }
    const group = byTaxpayer.get(item.invoice.taxpayerId) ?? { at: [], items: [] };
    group.at.push(at);
    group.items.push({ ...item, answer: answerFor?.(at) });
    byTaxpayer.set(item.invoice.taxpayerId, group);
  });
  await Promise.all(
    [...byTaxpayer].map(async ([taxpayerId, group]) => {
      const appended = await deps.appender.append({ account, taxpayerId, items: group.items });
      warnIfNotWoken(log, appended);
      group.at.forEach((at, n) => (outcomes[at] = clientOutcome(appended.outcomes[n])));
    }),
  );
  countRegistrations(outcomes);
  return outcomes;
}
