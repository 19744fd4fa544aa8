import type { Logger } from 'pino';
import type { RegisteredInvoice, RegistrationItem } from '@vf/chain';
import type { AccountWithPlan, SealedAnswer } from '@vf/db';
import { ApiError } from '../errors/api-error';
import { countRegistrations } from '../metrics/registration-metrics';
import { clientOutcome, unknownIds, warnIfNotWoken, type ItemOutcome, type RegistrationSteps } from './invoice-registration-service';
import { requestedScenario } from '../sandbox/sandbox-scenario-request';

/** An item's `sandbox_scenario`, outside the invoice: taken off the body before the invoice is validated. */
function withoutScenario(body: unknown): { body: unknown; scenario?: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !('sandbox_scenario' in body)) return { body };
  const { sandbox_scenario: named, ...invoice } = body as Record<string, unknown>;
  return { body: invoice, scenario: requestedScenario(named, 'sandbox_scenario') };
}

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
  // By taxpayer and chain: a taxpayer's scenario items go on its scenario chain, the others on its chain.
  const byChain = new Map<string, { taxpayerId: string; scenario: boolean; at: number[]; items: RegistrationItem[] }>();
  bodies.forEach((given, at) => {
    let item: Omit<RegistrationItem, 'answer'>;
    try {
      const { body, scenario } = withoutScenario(given);
      item = { ...deps.validateBody(body), ...(scenario !== undefined && { sandboxScenario: scenario }) };
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
    const { taxpayerId } = item.invoice;
    const scenario = item.sandboxScenario !== undefined;
    const key = `${taxpayerId}${scenario ? '/scenario' : ''}`;
    const group = byChain.get(key) ?? { taxpayerId, scenario, at: [], items: [] };
    group.at.push(at);
    group.items.push({ ...item, answer: answerFor?.(at) });
    byChain.set(key, group);
  });
  await Promise.all(
    [...byChain.values()].map(async ({ taxpayerId, scenario, ...group }) => {
      if (scenario) {
        try {
          await deps.scenarioChain(account.id, taxpayerId);
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          for (const at of group.at) outcomes[at] = { ok: false, error: err };
          return;
        }
      }
      const appended = await deps.appender.append({ account, taxpayerId, items: group.items, scenario });
      warnIfNotWoken(log, appended);
      group.at.forEach((at, n) => (outcomes[at] = clientOutcome(appended.outcomes[n])));
    }),
  );
  countRegistrations(outcomes);
  return outcomes;
}
