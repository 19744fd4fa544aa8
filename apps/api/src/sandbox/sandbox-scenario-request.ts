import {
  formatSandboxScenario,
  parseSandboxScenario,
  SANDBOX_SCENARIO_HEADER,
  SCENARIO_NAMES,
  SCENARIO_PARAMETERS,
  ScenarioRefusal,
} from '@vf/core';
import { chainStore, taxpayerStore, type Db } from '@vf/db';
import { ApiError } from '../errors/api-error';
import { taxpayerNotFound } from '../invoices/invoice-registration-service';
import { isUuid } from '../http/is-uuid';

/** Each scenario as a request names it: `rejected:<code>`, `authority_down:<seconds>`, `accepted`. */
export const SCENARIO_FORMS: readonly string[] = SCENARIO_NAMES.map((name) => {
  const parameter = SCENARIO_PARAMETERS[name];
  return parameter ? `${name}:<${parameter.kind}>` : name;
});

const validScenarios = { valid_scenarios: SCENARIO_FORMS, catalogue: '/api/v1/sandbox/scenarios' };

/**
 * The scenario a request names (the `Sandbox-Scenario` header, or a batch item's `sandbox_scenario`), as stored;
 * undefined without one. Anything the catalogue does not take is a 400 that lists the valid names.
 */
export function requestedScenario(value: unknown, where = SANDBOX_SCENARIO_HEADER): string | undefined {
  if (value === undefined) return undefined;
  const parsed =
    typeof value === 'string'
      ? parseSandboxScenario(value)
      : new ScenarioRefusal(`${where} must be a string`, `${where} debe ser un texto.`);
  if (parsed instanceof ScenarioRefusal) {
    throw new ApiError('invalid_sandbox_scenario', `${where}: ${parsed.reason}; nothing was written.`, { extensions: validScenarios });
  }
  return formatSandboxScenario(parsed);
}

const inProduction = () =>
  new ApiError(
    'sandbox_scenario_in_production',
    'This taxpayer sends to the authority’s production service, where an invoice is real: a sandbox scenario applies to sandbox taxpayers only. Nothing was written.',
    { extensions: validScenarios },
  );

/** The taxpayer's scenario chain, made on its first scenario record; refused for a production taxpayer. */
export async function scenarioChainOf(db: Db, accountId: string, taxpayerId: string): Promise<void> {
  const taxpayer = isUuid(taxpayerId) ? await taxpayerStore.find(db, accountId, taxpayerId) : undefined;
  if (!taxpayer) throw taxpayerNotFound();
  if (taxpayer.isProduction) throw inProduction();
  const claimed = await chainStore.claimScenario(db, taxpayer.id, taxpayer.nif);
  if (claimed.kind === 'taken') throw taxpayerNotFound();
}

/** A scenario named for a record of an invoice registered without one: its records stay on the chain they began on. */
export const scenarioNotApplicable = () =>
  new ApiError(
    'sandbox_scenario_not_applicable',
    'This invoice was registered without a sandbox scenario and goes to the authority’s sandbox service: its corrections and cancellation go there too, without Sandbox-Scenario. Nothing was written.',
    { extensions: validScenarios },
  );

/**
 * The scenario a new record of an existing invoice goes under: the one named, or `accepted` on an invoice registered
 * under a scenario (its records stay on its scenario chain); none on any other invoice, where naming one is refused.
 */
export async function scenarioForRecordOf(
  db: Db,
  accountId: string,
  first: { sandboxScenario: string | null; taxpayerId: string },
  requested: string | undefined,
): Promise<string | undefined> {
  if (first.sandboxScenario === null) {
    if (requested !== undefined) throw scenarioNotApplicable();
    return undefined;
  }
  // A taxpayer moved to production has no scenario chain left: its scenario invoices are sandbox ones it no longer
  // registers in (a record named under a scenario is refused as any scenario of a production taxpayer is).
  const taxpayer = await taxpayerStore.find(db, accountId, first.taxpayerId);
  if (taxpayer?.isProduction) {
    if (requested !== undefined) throw inProduction();
    throw new ApiError(
      'invoice_in_other_environment',
      'The invoice was registered under a sandbox scenario and the taxpayer now registers in production; it can no longer be corrected or cancelled here.',
    );
  }
  return requested ?? 'accepted';
}
