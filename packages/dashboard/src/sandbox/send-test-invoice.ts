import type { Request, Response } from 'express';
import { madridToday, parseSandboxScenario, SCENARIO_PARAMETERS, SCENARIO_NAMES, ScenarioRefusal, type ScenarioName } from '@vf/core';
import type { AccountWithPlan } from '@vf/db';
import type { ApiProblems, ApiServices } from '../dashboard-api';
import { field } from '../http/form-body';
import { locale, t } from '../i18n/i18n';
import type { TestInvoiceValues } from './test-invoice-panel';

export interface SendTestInvoiceDeps {
  registration: ApiServices['registration'];
  account(res: Response): Promise<AccountWithPlan>;
  problems: ApiProblems;
  clock: () => Date;
  /** Shows the taxpayer's page again with the panel's values and what is wrong with them. */
  refused(values: TestInvoiceValues, errors: Record<string, string>, status: number): Promise<void>;
}

/**
 * A simplified invoice (F2, 100.00 at 21 % VAT) registered through the API's own service under the chosen scenario,
 * then its page, whose status follows it to the end. The API refuses what it would refuse from a client.
 */
export async function sendTestInvoice(deps: SendTestInvoiceDeps, taxpayerId: string, req: Request, res: Response): Promise<void> {
  const values: TestInvoiceValues = {
    systemId: field(req.body, 'system_id'),
    scenario: field(req.body, 'scenario'),
    parameter: field(req.body, 'parameter').trim(),
  };
  const known = (SCENARIO_NAMES as readonly string[]).includes(values.scenario);
  if (known && SCENARIO_PARAMETERS[values.scenario as ScenarioName] && values.parameter === '') {
    return deps.refused(values, { parameter: t('sandbox.needsParameter') }, 422);
  }
  const scenario = values.parameter === '' ? values.scenario : `${values.scenario}:${values.parameter}`;
  // Checked here as the API would, to say what is wrong in the page's language (the API's reason is English).
  const parsed = parseSandboxScenario(scenario);
  if (parsed instanceof ScenarioRefusal) {
    return deps.refused(values, { parameter: locale() === 'en' ? parsed.reason : parsed.es }, 400);
  }
  const now = deps.clock();
  const body = {
    taxpayer_id: taxpayerId,
    computer_system_id: values.systemId,
    invoice_number: `PRUEBA-${now.getTime().toString(36).toUpperCase()}`,
    invoice_date: madridToday(now),
    invoice_type: 'F2',
    description: t('sandbox.description', { scenario }),
    breakdown: [{ tax_type: '01', regime_type: '01', operation_type: 'S1', base_amount: 100, tax_rate: 21, tax_amount: 21 }],
    total_amount: 121,
    total_tax_amount: 21,
  };
  try {
    const registered = await deps.registration.register(await deps.account(res), body, req.log, undefined, scenario);
    res.redirect(303, `/app/invoices/${registered.id}`);
  } catch (err) {
    const problem = deps.problems.of(err);
    if (!problem || problem.status >= 500) throw err;
    const issues = (problem.options.errors ?? []).map((issue) => `${issue.field}: ${issue.message}`);
    const message = locale() === 'en' ? [problem.detail, ...issues].join(' ') : t('sandbox.refused', { code: problem.code });
    await deps.refused(values, { [problem.code === 'invalid_sandbox_scenario' ? 'parameter' : 'scenario']: message }, problem.status);
  }
}
