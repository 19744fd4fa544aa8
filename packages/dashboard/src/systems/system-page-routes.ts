import { Router, type Request, type Response } from 'express';
import type { ApiProblems, ApiRequests, ApiServices, ApiViews, Problem } from '../dashboard-api';
import { html } from '../html/html';
import { field, textField } from '../http/form-body';
import { formErrorsFrom } from '../http/form-errors-from';
import { noticeFrom } from '../http/notices';
import type { RenderPage } from '../http/page-renderer';
import { signedInSession } from '../session/session-cookie';
import { t } from '../i18n/i18n';
import { EMPTY_SYSTEM, systemLabels, systemValues, type SystemFormValues } from './system-form';
import { systemDetailPage, systemNewPage } from './system-form-page';
import { systemListPage } from './system-list-page';

function formValues(body: unknown): SystemFormValues {
  return {
    vendor_name: textField(body, 'vendor_name'),
    vendor_nif: field(body, 'vendor_nif'),
    name: textField(body, 'name'),
    version: textField(body, 'version'),
    installation_number: textField(body, 'installation_number'),
    system_code: field(body, 'system_code').toUpperCase(),
    only_supports_verifactu: field(body, 'only_supports_verifactu') === 'true',
    supports_multiple_taxpayers: field(body, 'supports_multiple_taxpayers') === 'true',
  };
}

/** Empty text fields are left out, so the API's schema says "is required" and an empty code means "derive it". */
function request(values: SystemFormValues): Record<string, string | boolean> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
}

interface SystemRouteDeps {
  systems: ApiServices['systems'];
  render: RenderPage;
  requests: ApiRequests;
  problems: ApiProblems;
  views: ApiViews;
}

const account = (res: Response) => signedInSession(res).accountId;

function systemId(deps: SystemRouteDeps, req: Request): string {
  const id = req.params.id;
  if (!deps.views.isUuid(id)) throw deps.problems.create('system_not_found', 'No computer system with this id in your account.');
  return id;
}

// Sent through the API's own schemas and service: same validation, same 409 rule.
export function systemPageRoutes(deps: SystemRouteDeps): Router {
  const { systems, render, requests, problems } = deps;
  const router = Router();

  router.get('/app/systems', async (req, res) => {
    render(req, res, systemListPage({ systems: await systems.list(account(res)), notice: noticeFrom(req) }));
  });

  router.get('/app/systems/new', (req, res) => {
    render(req, res, systemNewPage({ values: EMPTY_SYSTEM }));
  });

  router.post('/app/systems', async (req, res) => {
    const values = formValues(req.body);
    try {
      const system = await systems.create(account(res), requests.systemCreate(request(values)));
      res.redirect(303, `/app/systems/${system.id}?notice=system_created`);
    } catch (err) {
      const errors = formErrorsFrom(problems.of(err), systemLabels());
      if (!errors) throw err;
      render(req, res, systemNewPage({ values, errors }), (err as Problem).status);
    }
  });

  router.get('/app/systems/:id', async (req, res) => {
    const system = await systems.get(account(res), systemId(deps, req));
    render(req, res, systemDetailPage({ system, values: systemValues(system), notice: noticeFrom(req) }));
  });

  router.post('/app/systems/:id', (req, res) => updateSystem(deps, req, res));
  router.post('/app/systems/:id/delete', (req, res) => deleteSystem(deps, req, res));

  return router;
}

/** The edit form sent: every required field given, then the API's update; its refusals shown on the form. */
async function updateSystem(deps: SystemRouteDeps, req: Request, res: Response) {
  const { systems, render, requests, problems } = deps;
  const id = systemId(deps, req);
  const values = formValues(req.body);
  const system = await systems.get(account(res), id);
  const missing = (['vendor_name', 'vendor_nif', 'name', 'version', 'installation_number'] as const).filter((k) => values[k] === '');
  if (missing.length > 0) {
    const errors = Object.fromEntries(missing.map((k) => [k, t('formError.required', { label: systemLabels()[k] })]));
    return render(req, res, systemDetailPage({ system, values, errors, notice: html`` }), 422);
  }
  try {
    await systems.update(account(res), id, requests.systemUpdate(request(values)));
    res.redirect(303, `/app/systems/${id}?notice=system_saved`);
  } catch (err) {
    const errors =
      problems.of(err)?.code === 'system_single_taxpayer'
        ? { supports_multiple_taxpayers: t('systems.usedBySeveral') }
        : formErrorsFrom(problems.of(err), systemLabels());
    if (!errors) throw err;
    render(req, res, systemDetailPage({ system, values, errors, notice: html`` }), (err as Problem).status);
  }
}

/** A system still used by invoices is not deleted: its page says why. */
async function deleteSystem(deps: SystemRouteDeps, req: Request, res: Response) {
  const { systems, render, problems } = deps;
  const id = systemId(deps, req);
  try {
    await systems.remove(account(res), id);
    res.redirect(303, '/app/systems?notice=system_deleted');
  } catch (err) {
    const problem = problems.of(err);
    if (problem?.code !== 'system_in_use') throw err;
    const system = await systems.get(account(res), id);
    render(
      req,
      res,
      systemDetailPage({
        system,
        values: systemValues(system),
        notice: html``,
        deleteRefused: t('systems.notDeleted', { detail: problem.detail }),
      }),
      409,
    );
  }
}
