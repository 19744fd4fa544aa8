import { Router, type Request, type Response } from 'express';
import { madridToday } from '@vf/core';
import type { TaxpayerView } from '@vf/db';
import type { ApiProblems, ApiRequests, ApiServices, ApiViews, Problem } from '../dashboard-api';
import type { FormErrors } from '../html/form-fields';
import { html } from '../html/html';
import { field, rawField, textField, uploadedFile } from '../http/form-body';
import { formErrorsFrom } from '../http/form-errors-from';
import { noticeFrom } from '../http/notices';
import type { RenderPage } from '../http/page-renderer';
import { signedInSession } from '../session/session-cookie';
import { taxpayerDetailPage, type TaxpayerDetailView } from './taxpayer-detail-page';
import { t } from '../i18n/i18n';
import { TAXPAYER_FORM_FIELDS, taxpayerLabels, type TaxpayerFormValues } from './taxpayer-form';
import { taxpayerListPage } from './taxpayer-list-page';
import { taxpayerNewPage } from './taxpayer-new-page';
import type { AccountWithPlan } from '@vf/db';
import { sendTestInvoice } from '../sandbox/send-test-invoice';
import type { TestInvoicePanelView } from '../sandbox/test-invoice-panel';

function formValues(body: unknown): TaxpayerFormValues {
  return { nif: field(body, 'nif'), name: textField(body, 'name'), isProduction: field(body, 'is_production') === 'true' };
}

/** The upload as the API takes it; a password without a file is a mistake worth naming. */
function certificateInput(
  req: Request,
  res: Response,
): { input?: { certificate_p12_base64: string; certificate_password: string }; errors?: FormErrors } {
  const file = uploadedFile(res, 'certificate');
  const password = rawField(req.body, 'certificate_password');
  if (!file) return password ? { errors: { certificate: t('taxpayers.fileForPassword') } } : {};
  return { input: { certificate_p12_base64: file.data.toString('base64'), certificate_password: password } };
}

interface TaxpayerRouteDeps {
  taxpayers: ApiServices['taxpayers'];
  systems: ApiServices['systems'];
  registration: ApiServices['registration'];
  accountById: (id: string) => Promise<AccountWithPlan | undefined>;
  render: RenderPage;
  clock: () => Date;
  requests: ApiRequests;
  problems: ApiProblems;
  views: ApiViews;
}

const account = (res: Response) => signedInSession(res).accountId;

function taxpayerId(deps: TaxpayerRouteDeps, req: Request): string {
  const id = req.params.id;
  if (!deps.views.isUuid(id)) throw deps.problems.create('taxpayer_not_found', 'No taxpayer with this id in your account.');
  return id;
}

/** The taxpayer's page, its certificate read as the API reads it (the same warnings, from the same day). */
function detailPage(
  deps: TaxpayerRouteDeps,
  taxpayer: TaxpayerView,
  view: Omit<TaxpayerDetailView, 'taxpayer' | 'now' | 'warnings' | 'expiryWarningDays' | 'today'>,
) {
  const now = deps.clock();
  const { views } = deps;
  const warnings = views.certificateWarnings(taxpayer, now);
  const today = madridToday(now);
  return taxpayerDetailPage({ taxpayer, now, today, warnings, expiryWarningDays: views.certificateExpiryWarningDays, ...view });
}

/** The sandbox panel of a sandbox taxpayer's page: the account's systems, and a refused submission's values. */
async function testInvoice(
  deps: TaxpayerRouteDeps,
  res: Response,
  taxpayer: TaxpayerView,
  refused?: Omit<TestInvoicePanelView, 'systems'>,
): Promise<TestInvoicePanelView | undefined> {
  return taxpayer.isProduction ? undefined : { systems: await deps.systems.list(account(res)), ...refused };
}

async function showDetail(
  deps: TaxpayerRouteDeps,
  req: Request,
  res: Response,
  view: Omit<TaxpayerDetailView, 'taxpayer' | 'now' | 'notice' | 'warnings' | 'expiryWarningDays' | 'today'>,
  status: number,
) {
  const taxpayer = await deps.taxpayers.get(account(res), taxpayerId(deps, req));
  const panel = view.testInvoice ?? (await testInvoice(deps, res, taxpayer));
  deps.render(req, res, detailPage(deps, taxpayer, { notice: html``, ...view, testInvoice: panel }), status);
}

/** POST of the sandbox panel: a test invoice under the chosen scenario (sandbox taxpayers only, as the API says). */
async function postTestInvoice(deps: TaxpayerRouteDeps, req: Request, res: Response) {
  const id = taxpayerId(deps, req);
  await sendTestInvoice(
    {
      registration: deps.registration,
      problems: deps.problems,
      clock: deps.clock,
      async account(response) {
        const found = await deps.accountById(account(response));
        if (!found) throw deps.problems.create('not_found', 'The signed-in account no longer exists.');
        return found;
      },
      async refused(values, errors, status) {
        const taxpayer = await deps.taxpayers.get(account(res), id);
        const panel = await testInvoice(deps, res, taxpayer, { values, errors });
        await showDetail(deps, req, res, { testInvoice: panel }, status);
      },
    },
    id,
    req,
    res,
  );
}

// Sent through the API's own schemas and service: same validation, same 409 rules, same certificate checks.
export function taxpayerPageRoutes(deps: TaxpayerRouteDeps): Router {
  const { taxpayers, render, clock, requests, problems, views } = deps;
  const router = Router();
  const expiryWarningDays = views.certificateExpiryWarningDays;

  router.get('/app/taxpayers', async (req, res) => {
    render(
      req,
      res,
      taxpayerListPage({ taxpayers: await taxpayers.list(account(res)), now: clock(), expiryWarningDays, notice: noticeFrom(req) }),
    );
  });

  router.get('/app/taxpayers/new', (req, res) => {
    render(req, res, taxpayerNewPage({ values: { nif: '', name: '', isProduction: false } }));
  });

  router.post('/app/taxpayers', (req, res) => createTaxpayer(deps, req, res));

  router.get('/app/taxpayers/:id', async (req, res) => {
    const taxpayer = await taxpayers.get(account(res), taxpayerId(deps, req));
    render(req, res, detailPage(deps, taxpayer, { notice: noticeFrom(req), testInvoice: await testInvoice(deps, res, taxpayer) }));
  });

  router.post('/app/taxpayers/:id/test-invoice', (req, res) => postTestInvoice(deps, req, res));

  router.post('/app/taxpayers/:id', (req, res) => updateTaxpayer(deps, req, res));

  router.post('/app/taxpayers/:id/certificate', (req, res) => saveCertificate(deps, req, res));

  // The mode through the API's own rules (VERI*FACTU kept until 31 December once used; a certificate to sign with).
  router.post('/app/taxpayers/:id/mode', async (req, res) => {
    const id = taxpayerId(deps, req);
    try {
      await taxpayers.update(account(res), id, requests.taxpayerUpdate({ operating_mode: field(req.body, 'operating_mode') }));
      res.redirect(303, `/app/taxpayers/${id}?notice=mode_saved`);
    } catch (err) {
      const problem = problems.of(err);
      if (!problem || problem.status >= 500) throw err;
      const refused = problem.code === 'signing_certificate_unusable' ? t('mode.refusedUnsigned') : problem.detail;
      await showDetail(deps, req, res, { modeRefused: refused }, problem.status);
    }
  });

  router.post('/app/taxpayers/:id/certificate/remove', async (req, res) => {
    const id = taxpayerId(deps, req);
    await taxpayers.update(account(res), id, requests.taxpayerUpdate({ certificate_p12_base64: null }));
    res.redirect(303, `/app/taxpayers/${id}?notice=certificate_removed`);
  });

  router.post('/app/taxpayers/:id/delete', async (req, res) => {
    try {
      await taxpayers.remove(account(res), taxpayerId(deps, req));
      res.redirect(303, '/app/taxpayers?notice=taxpayer_deleted');
    } catch (err) {
      const problem = problems.of(err);
      if (problem?.code !== 'taxpayer_has_invoices') throw err;
      await showDetail(deps, req, res, { deleteRefused: `Not deleted. ${problem.detail}` }, 409);
    }
  });

  return router;
}

async function createTaxpayer(deps: TaxpayerRouteDeps, req: Request, res: Response) {
  const { taxpayers, render, requests, problems } = deps;
  const values = formValues(req.body);
  const certificate = certificateInput(req, res);
  if (certificate.errors) return render(req, res, taxpayerNewPage({ values, errors: certificate.errors }), 422);
  try {
    const request = requests.taxpayerCreate({
      ...(values.nif ? { nif: values.nif } : {}),
      ...(values.name ? { name: values.name } : {}),
      is_production: values.isProduction,
      ...certificate.input,
    });
    const saved = await taxpayers.create(account(res), request);
    res.redirect(303, `/app/taxpayers/${saved.taxpayer.id}?notice=taxpayer_created`);
  } catch (err) {
    const errors = formErrorsFrom(problems.of(err), taxpayerLabels(), TAXPAYER_FORM_FIELDS);
    if (!errors) throw err;
    render(req, res, taxpayerNewPage({ values, errors }), (err as Problem).status);
  }
}

/** The edit form: the NIF sent only when it changed, so a taxpayer with invoices keeps its own. */
async function updateTaxpayer(deps: TaxpayerRouteDeps, req: Request, res: Response) {
  const { taxpayers, requests, problems } = deps;
  const id = taxpayerId(deps, req);
  const values = formValues(req.body);
  if (!values.name) return showDetail(deps, req, res, { edit: { values, errors: { name: t('taxpayers.enterName') } } }, 422);
  try {
    const current = await taxpayers.get(account(res), id);
    const request = requests.taxpayerUpdate({
      ...(values.nif !== current.nif ? { nif: values.nif } : {}),
      name: values.name,
      is_production: values.isProduction,
    });
    await taxpayers.update(account(res), id, request);
    res.redirect(303, `/app/taxpayers/${id}?notice=taxpayer_saved`);
  } catch (err) {
    const problem = problems.of(err);
    if (problem?.code === 'taxpayer_has_invoices') {
      return showDetail(deps, req, res, { edit: { values, errors: { nif: `${problem.detail}` } } }, 409);
    }
    const errors = formErrorsFrom(problems.of(err), taxpayerLabels());
    if (!errors) throw err;
    await showDetail(deps, req, res, { edit: { values, errors } }, (err as Problem).status);
  }
}

async function saveCertificate(deps: TaxpayerRouteDeps, req: Request, res: Response) {
  const { taxpayers, requests, problems } = deps;
  const id = taxpayerId(deps, req);
  const certificate = certificateInput(req, res);
  if (!certificate.input) {
    return showDetail(deps, req, res, { certificateErrors: certificate.errors ?? { certificate: t('taxpayers.chooseFile') } }, 422);
  }
  try {
    await taxpayers.update(account(res), id, requests.taxpayerUpdate(certificate.input));
    res.redirect(303, `/app/taxpayers/${id}?notice=certificate_saved`);
  } catch (err) {
    const errors = formErrorsFrom(problems.of(err), taxpayerLabels(), TAXPAYER_FORM_FIELDS);
    if (!errors) throw err;
    await showDetail(deps, req, res, { certificateErrors: errors }, (err as Problem).status);
  }
}
