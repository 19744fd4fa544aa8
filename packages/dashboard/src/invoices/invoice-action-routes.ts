import { Router, type Request, type Response } from 'express';
import type { AccountWithPlan } from '@vf/db';
import type { ApiProblems, ApiServices, ApiViews, Problem } from '../dashboard-api';
import type { RenderPage } from '../http/page-renderer';
import { t } from '../i18n/i18n';
import { signedInSession } from '../session/session-cookie';
import {
  bodyFromValues,
  correctionErrorsFrom,
  keptFromInvoice,
  valuesFromForm,
  valuesFromInvoice,
  type CorrectionValues,
} from './correction-form';
import { correctionPage } from './correction-page';

const CORRECTION_REFUSALS = ['invoice_awaiting_authority', 'invoice_in_other_environment', 'system_single_taxpayer'];

/** Why a correction cannot be made now, in the reader's language. */
function correctionRefusal(err: Problem): string {
  return t(`correction.refused.${CORRECTION_REFUSALS.includes(err.code) ? err.code : 'other'}`);
}

/** Notices are fixed texts (never text from the URL), so a refusal maps to one of them. */
function refusalNotice(err: Problem): string {
  if (err.code === 'already_cancelled') return 'cancellation_already';
  if (err.code === 'invoice_awaiting_authority') return 'cancellation_awaiting';
  if (err.code === 'invoice_in_other_environment') return 'cancellation_other_environment';
  return 'cancellation_refused';
}

export interface InvoiceActionDeps {
  correction: ApiServices['correction'];
  cancellation: ApiServices['cancellation'];
  invoices: ApiServices['invoices'];
  accountById: (id: string) => Promise<AccountWithPlan | undefined>;
  render: RenderPage;
  problems: ApiProblems;
  views: ApiViews;
}

/** Correcting and cancelling an invoice and reading each record's XML from the dashboard: the API's own services, POST-redirect-GET. */
export function invoiceActionRoutes(deps: InvoiceActionDeps): Router {
  const { invoices, render, problems } = deps;
  const router = Router();
  const accountId = (res: Response) => signedInSession(res).accountId;

  async function account(res: Response): Promise<AccountWithPlan> {
    const found = await deps.accountById(accountId(res));
    if (!found) throw problems.create('not_found', 'The signed-in account no longer exists.');
    return found;
  }

  async function showForm(req: Request, res: Response, values: CorrectionValues | undefined, errors = {}, refusal?: string, status = 200) {
    const detail = await invoices.get(accountId(res), req.params.id as string);
    const first = detail.records[0];
    render(
      req,
      res,
      correctionPage({
        invoiceId: first.id,
        invoiceNumber: first.invoiceNumber,
        invoiceDate: first.invoiceDate,
        values: values ?? valuesFromInvoice(detail, deps.views.breakdownLine),
        errors,
        refusal,
        reactivates: detail.cancelled,
      }),
      status,
    );
  }

  router.get('/app/invoices/:id/correct', (req, res) => showForm(req, res, undefined));

  router.post('/app/invoices/:id/correct', async (req, res) => {
    const id = req.params.id;
    const values = valuesFromForm(req.body as Record<string, unknown>);
    const detail = await invoices.get(accountId(res), id);
    const first = detail.records[0];
    const identity = {
      taxpayer_id: first.taxpayerId,
      computer_system_id: detail.invoice.computerSystemId,
      invoice_number: first.invoiceNumber,
      invoice_date: first.invoiceDate,
    };
    try {
      await deps.correction.correct(await account(res), id, bodyFromValues(values, identity, keptFromInvoice(detail.invoice)), req.log);
      // A correction of a cancelled invoice reactivates it, once the authority accepts it.
      res.redirect(303, `/app/invoices/${id}?notice=${detail.cancelled ? 'reactivation_queued' : 'correction_queued'}`);
    } catch (err) {
      const problem = problems.of(err);
      const errors = correctionErrorsFrom(problem);
      if (errors) return showForm(req, res, values, errors, undefined, 422);
      if (problem?.status === 409) return showForm(req, res, values, {}, correctionRefusal(problem), 409);
      throw err;
    }
  });

  router.post('/app/invoices/:id/cancel', async (req, res) => {
    const id = req.params.id;
    const form = req.body as Record<string, unknown>;
    // The form's checkbox is the confirmation; without it nothing is cancelled.
    if (form.confirm !== 'yes') return res.redirect(303, `/app/invoices/${id}?notice=cancellation_unconfirmed`);
    try {
      await deps.cancellation.cancel(await account(res), id, { reason: typeof form.reason === 'string' ? form.reason : '' }, req.log);
      res.redirect(303, `/app/invoices/${id}?notice=cancellation_queued`);
    } catch (err) {
      const problem = problems.of(err);
      if (problem && (problem.status === 409 || problem.status === 422))
        return res.redirect(303, `/app/invoices/${id}?notice=${refusalNotice(problem)}`);
      throw err;
    }
  });

  router.get('/app/invoices/:id/records/:recordId/xml', async (req, res) => {
    const xml = await invoices.recordXml(accountId(res), req.params.id, req.params.recordId);
    res.setHeader('Cache-Control', 'no-store');
    res.type('application/xml').send(xml);
  });

  return router;
}
