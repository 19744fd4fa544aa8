import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { TaxIdQuestion } from '@vf/contract';
import { validateEuVatNumber, validateSpanishNif, VIES_COUNTRY_CODES } from '@vf/core';
import type { ApiProblems, ApiRequests, ApiServices, ApiViews } from '../dashboard-api';
import { textField, uploadedFile } from '../http/form-body';
import type { FormErrors } from '../html/form-fields';
import { noticeFrom } from '../http/notices';
import type { RenderPage } from '../http/page-renderer';
import { t } from '../i18n/i18n';
import { signedInSession } from '../session/session-cookie';
import { recipientCheckText } from './recipient-check-text';
import { progressText, taxIdListPage, taxIdUploadPage } from './tax-id-list-pages';

const ONE_DAY = 86_400;
/** A refused list names this many of its bad rows; the rest are counted in the API's detail. */
const SHOWN_ISSUES = 5;

/** An issue of the list request (`tax_ids.4.nif`) named by its line in the CSV (the first after the header is 1). */
function rowOf(field: string): string {
  const at = /^tax_ids\.(\d+)/.exec(field);
  return at ? t('taxIds.row', { line: Number(at[1]) + 1 }) : field;
}

/** The question the form's fields ask: a Spanish NIF with its name (the census), or an EU VAT number (VIES). */
function questionOf(body: unknown): { taxId: TaxIdQuestion } | { said: { result: string; text: string } } {
  const vat = textField(body, 'vat_number');
  if (textField(body, 'nif') === '' && vat !== '') {
    const read = validateEuVatNumber(undefined, vat);
    const known = read.valid && VIES_COUNTRY_CODES.has(read.normalized.slice(0, 2));
    return known ? { taxId: { vatNumber: read.normalized } } : { said: { result: 'invalid', text: t('taxIds.badVatNumber') } };
  }
  const nif = validateSpanishNif(textField(body, 'nif'));
  const name = textField(body, 'name');
  if (!nif.valid) return { said: { result: 'invalid', text: t('taxIds.badNif') } };
  if (name === '') return { said: { result: 'unknown', text: '' } };
  return { taxId: { nif: nif.normalized, name } };
}

/** The invoice forms' check of a recipient; it never stops the form: whatever goes wrong is said beside the fields. */
function recipientCheck(taxIdChecks: ApiServices['taxIdChecks'], problems: ApiProblems): RequestHandler {
  return async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const question = questionOf(req.body);
    if ('said' in question) return res.json(question.said);
    try {
      const [answer] = await taxIdChecks.checkWithinAllowance(signedInSession(res).accountId, {
        taxIds: [question.taxId],
        maxAge: ONE_DAY,
      });
      res.json({ result: answer!.result, detail: answer!.detail, text: recipientCheckText(answer!) });
    } catch (err) {
      const problem = problems.known(err);
      if (!problem) throw err;
      res.json({ result: 'unknown', text: problem.status === 429 ? problem.detail : t('taxIds.unavailable') });
    }
  };
}

/**
 * The tax ID checks of the dashboard: the invoice form's recipient check (JSON, for the script) and the list check
 * (a CSV of up to 10,000 tax IDs, its progress, its results as CSV), through the API's own services and schemas.
 */
export function taxIdPageRoutes(deps: {
  services: Pick<ApiServices, 'taxIdChecks' | 'taxIdLists' | 'account' | 'overview'>;
  render: RenderPage;
  requests: ApiRequests;
  problems: ApiProblems;
  views: ApiViews;
}): Router {
  const { render, requests, problems, views } = deps;
  const { taxIdLists } = deps.services;
  const uploadPage = async (req: Request, res: Response, errors?: FormErrors) => {
    const current = await deps.services.overview.account(account(res));
    return taxIdUploadPage({ recipientCheck: current.recipientCheck ?? '', notice: noticeFrom(req), errors });
  };
  const router = Router();
  const account = (res: Response) => signedInSession(res).accountId;
  const list = (req: Request, res: Response) => {
    const id = String(req.params.id);
    if (!views.isUuid(id)) throw problems.create('not_found', 'No list of tax IDs with this id.');
    return taxIdLists.get(account(res), id);
  };

  router.post('/app/tax-ids/check', recipientCheck(deps.services.taxIdChecks, problems));

  router.get('/app/tax-ids', async (req, res) => render(req, res, await uploadPage(req, res)));

  router.post('/app/tax-ids/recipient-check', async (req, res) => {
    const value = textField(req.body, 'recipient_check');
    const settings = requests.accountSettings({ recipient_check: value === '' ? null : value });
    await deps.services.account.updateSettings(await deps.services.overview.account(account(res)), settings);
    res.redirect(303, '/app/tax-ids?notice=recipient_check_saved');
  });

  router.post('/app/tax-ids', async (req, res) => {
    const file = uploadedFile(res, 'file');
    if (!file || file.data.length === 0) return render(req, res, await uploadPage(req, res, { file: t('taxIds.noFile') }), 422);
    try {
      const created = await taxIdLists.create(account(res), requests.taxIdListCsv(file.data.toString('utf8')));
      res.redirect(303, `/app/tax-ids/lists/${created.id}`);
    } catch (err) {
      const problem = problems.of(err);
      if (!problem || problem.status >= 500) throw err;
      const issues = (problem.options.errors ?? []).slice(0, SHOWN_ISSUES).map((i) => `${rowOf(i.field)}: ${i.message}`);
      const detail = [problem.detail, ...issues].join(' ');
      render(req, res, await uploadPage(req, res, { file: t('taxIds.refused', { detail }) }), problem.status);
    }
  });

  router.get('/app/tax-ids/lists/:id', async (req, res) => render(req, res, taxIdListPage(await list(req, res))));

  router.get('/app/tax-ids/lists/:id/progress', async (req, res) => {
    const found = await list(req, res);
    res.setHeader('Cache-Control', 'no-store');
    res.json({ status: found.status, answered: found.answered, total: found.total, text: progressText(found) });
  });

  router.get('/app/tax-ids/lists/:id/results.csv', async (req, res) => {
    const found = await list(req, res);
    await taxIdLists.writeCsv(account(res), found.id, res, () =>
      res.type('text/csv; charset=utf-8').attachment(`nif-${found.id}.csv`).setHeader('Cache-Control', 'no-store'),
    );
  });

  return router;
}
