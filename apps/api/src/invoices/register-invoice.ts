import type { Logger } from 'pino';
import type { RegisteredInvoice, RegistrationAppender, RegistrationItem } from '@vf/chain';
import type { AccountWithPlan, SealedAnswer } from '@vf/db';
import type { UncheckedApiKey } from '../auth/require-api-key';
import { ApiError } from '../errors/api-error';
import { countRegistrations } from '../metrics/registration-metrics';
import { clientOutcome, RecipientCheckDefault, type ItemOutcome } from './chain-problems';
import { unknownIds } from './unknown-ids';
import { warnIfNotWoken } from './warn-if-not-woken';

/** What registering needs of the service: the chain writer, and the checks an invoice passes on its own. */
export interface RegistrationSteps {
  appender: RegistrationAppender;
  validateBody(body: unknown): Omit<RegistrationItem, 'answer'>;
  /** Makes the taxpayer's scenario chain ready (refusing a production taxpayer), before a scenario record is appended. */
  scenarioChain(accountId: string, taxpayerId: string): Promise<void>;
}

/**
 * Registers one invoice: appended to its taxpayer's chain together with whatever registrations of that taxpayer
 * are waiting (group commit). `answer`: with an Idempotency-Key, the answer stored in the same statement. With an
 * API key not yet checked, the append's read checks it; a refusal before the append checks it first (a 401 then).
 */
export async function registerInvoice(
  deps: RegistrationSteps,
  account: AccountWithPlan | UncheckedApiKey,
  body: unknown,
  log: Logger,
  answer?: (r: RegisteredInvoice) => SealedAnswer,
  scenario?: string,
): Promise<RegisteredInvoice> {
  const checkKey = () => ('verify' in account ? account.verify() : undefined);
  let outcome: ItemOutcome;
  try {
    let item: Omit<RegistrationItem, 'answer'>;
    try {
      item = deps.validateBody(body);
    } catch (err) {
      if (err instanceof ApiError) await checkKey();
      throw err;
    }
    const refused = unknownIds(item);
    if (refused) {
      await checkKey();
      outcome = { ok: false, error: refused };
    } else {
      const taxpayerId = item.invoice.taxpayerId;
      // A scenario request always comes with its account checked (registrationChecksItsKey).
      if (scenario !== undefined) await deps.scenarioChain((account as AccountWithPlan).id, taxpayerId);
      const appended = await deps.appender.append({
        account,
        taxpayerId,
        items: [{ ...item, answer, ...(scenario !== undefined && { sandboxScenario: scenario }) }],
        scenario: scenario !== undefined,
      });
      warnIfNotWoken(log, appended);
      const first = appended.outcomes[0];
      // Not a registration yet: its route registers it again, with the account's recipient check (not counted here).
      if (!first.ok && first.error.code === 'recipient_check_default') throw new RecipientCheckDefault();
      outcome = clientOutcome(first);
    }
  } catch (err) {
    // A request without a valid API key is no registration, as when the key is checked before the route.
    if (!isUnauthorized(err) && !(err instanceof RecipientCheckDefault))
      countRegistrations([err instanceof ApiError ? { ok: false, error: err } : undefined]);
    throw err;
  }
  if (!(!outcome.ok && isUnauthorized(outcome.error))) countRegistrations([outcome]);
  if (!outcome.ok) throw outcome.error;
  return outcome.registered;
}

function isUnauthorized(err: unknown): boolean {
  return err instanceof ApiError && err.code === 'unauthorized';
}
