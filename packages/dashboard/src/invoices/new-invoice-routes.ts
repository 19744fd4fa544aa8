import { Router, type Request, type Response } from 'express';
import { madridToday } from '@vf/core';
import type { AccountWithPlan } from '@vf/db';
import type { TaxIdAnswerJson } from '@vf/contract';
import type { ApiProblems, ApiServices, Problem } from '../dashboard-api';
import type { FormErrors } from '../html/form-fields';
import type { RenderPage } from '../http/page-renderer';
import { locale, t } from '../i18n/i18n';
import { signedInSession } from '../session/session-cookie';
import { recipientCheckText } from '../tax-ids/recipient-check-text';
import { invoiceFieldErrorsFrom } from './correction-form';
import {
  newInvoiceBody,
  newInvoiceFieldLabel,
  newInvoiceValuesFromForm,
  withoutDerivedErrors,
  type NewInvoiceValues,
} from './new-invoice-form';
import { newInvoicePage } from './new-invoice-page';

export interface NewInvoiceDeps {
  services: Pick<ApiServices, 'taxpayers' | 'systems' | 'checkedRegistration'>;
  accountById: (id: string) => Promise<AccountWithPlan | undefined>;
  render: RenderPage;
  problems: ApiProblems;
  clock: () => Date;
}

/** What the census or VIES said of the recipients of a refused invoice (the problem's `recipient_check`). */
function refusedRecipients(problem: Problem): string {
  const said = (problem.options.extensions?.recipient_check ?? []) as TaxIdAnswerJson[];
  return said
    .filter((a) => a.result === 'invalid')
    .map((a) => `${a.nif ?? a.vat_number}: ${recipientCheckText({ ...a, censusName: a.census_name, faultCode: a.fault_code })}`)
    .join(' ');
}

/** A refusal of the whole invoice in the reader's language: the API's precise words on an English page. */
function refusalText(problem: Problem): string {
  if (problem.code === 'recipient_not_in_census' || problem.code === 'recipient_not_in_vies') {
    return `${t(`newInvoice.refused.${problem.code}`)} ${refusedRecipients(problem)}`;
  }
  return locale() === 'en' ? problem.detail : t('newInvoice.refused.other', { code: problem.code });
}

/**
 * The dashboard's invoice form (F1, F2): registered through the API's own registration, with the account's default
 * recipient check as POST /invoices applies it. An invoice is registered once: a form sent again finds its number
 * taken (duplicate_invoice) and says so.
 */
export function newInvoiceRoutes(deps: NewInvoiceDeps): Router {
  const { problems } = deps;
  const { taxpayers, systems, checkedRegistration } = deps.services;
  const router = Router();
  const accountId = (res: Response) => signedInSession(res).accountId;

  async function showForm(req: Request, res: Response, values: NewInvoiceValues, errors: FormErrors = {}, refusal?: string, status = 200) {
    const [ownTaxpayers, ownSystems] = await Promise.all([taxpayers.list(accountId(res)), systems.list(accountId(res))]);
    const withDefaults = { taxpayer_id: ownTaxpayers[0]?.id ?? '', computer_system_id: ownSystems[0]?.id ?? '', ...values };
    const page = newInvoicePage({
      values: withDefaults,
      errors,
      refusal,
      taxpayers: ownTaxpayers.map((tp) => ({ id: tp.id, label: `${tp.name} (${tp.nif})` })),
      systems: ownSystems.map((s) => ({ id: s.id, label: `${s.name} ${s.version}` })),
    });
    deps.render(req, res, page, status);
  }

  router.get('/app/invoices/new', (req, res) =>
    showForm(req, res, { invoice_date: madridToday(deps.clock()), invoice_type: 'F1', 'breakdown.0.tax_rate': '21' }),
  );

  router.post('/app/invoices/new', async (req, res) => {
    const values = newInvoiceValuesFromForm(req.body as Record<string, unknown>);
    const account = await deps.accountById(accountId(res));
    if (!account) throw problems.create('not_found', 'The signed-in account no longer exists.');
    try {
      const done = await checkedRegistration.register(account, newInvoiceBody(values), req.log, account.recipientCheck);
      res.redirect(303, `/app/invoices/${done.registered.id}?notice=invoice_registered`);
    } catch (err) {
      const problem = problems.of(err);
      if (!problem || problem.status >= 500) throw err;
      const errors = invoiceFieldErrorsFrom(problem, newInvoiceFieldLabel);
      if (errors) {
        // A recipient missing or given twice is said on the recipient's first field.
        const { recipient, ...rest } = errors;
        return showForm(
          req,
          res,
          values,
          withoutDerivedErrors({ ...(recipient && { 'recipient.nif': recipient }), ...rest }),
          undefined,
          422,
        );
      }
      if (problem.code === 'duplicate_invoice')
        return showForm(req, res, values, { invoice_number: t('newInvoice.duplicate') }, undefined, 409);
      await showForm(req, res, values, {}, refusalText(problem), problem.status);
    }
  });

  return router;
}
