import { Router, type Request, type Response } from 'express';
import type { ApiProblems, ApiRequests, ApiServices, ApiViews } from '../dashboard-api';
import type { FormErrors } from '../html/form-fields';
import { field } from '../http/form-body';
import { formErrorsFrom } from '../http/form-errors-from';
import { noticeFrom } from '../http/notices';
import type { RenderPage } from '../http/page-renderer';
import { t } from '../i18n/i18n';
import { signedInSession } from '../session/session-cookie';
import { keptRecordsPage, type KeptForm, type KeptRecordsView } from './kept-records-page';
import { madridDayStart } from './madrid-day-start';

interface KeptRecordsRouteDeps {
  services: Pick<ApiServices, 'taxpayers' | 'systems' | 'eventLog' | 'integrityChecks' | 'periodExports' | 'remissions'>;
  render: RenderPage;
  requests: Pick<ApiRequests, 'integrityCheck' | 'periodExport' | 'remissionCreate'>;
  problems: ApiProblems;
  views: ApiViews;
}

/** The events an export writes: 08 for records, 09 for events. */
const EXPORT_EVENTS = ['08', '09'];
/** The latest exports of each kind the page lists (every event stays in the event log's page). */
const EXPORTS_SHOWN = 50;
/** The refusals the page says in its own words; others keep the API's detail. */
const REFUSALS = [
  'export_period_empty',
  'export_too_large',
  'no_records_in_period',
  'records_not_signed',
  'remission_in_progress',
  'signing_certificate_unusable',
];
/** The form field a refusal without a field points at. */
const FIRST_FIELD: Record<KeptForm, string> = { check: 'subject', export: 'from', remission: 'requirement_reference' };

const account = (res: Response) => signedInSession(res).accountId;
const FORM_FIELDS = ['subject', 'system_id', 'from_seq', 'to_seq', 'from', 'to', 'requirement_reference', 'period_from', 'period_to'];
const typed = (body: unknown) => Object.fromEntries(FORM_FIELDS.map((name) => [name, field(body, name)]));
/** A sequence number as the API takes it; anything else as typed, for its check to name. */
const seq = (value: string) => (/^\d{1,15}$/.test(value) ? Number(value) : value);

function subjectOf(body: unknown): { subject: string; system_id?: string } {
  const subject = field(body, 'subject');
  return subject === 'events' ? { subject, system_id: field(body, 'system_id') } : { subject };
}

function taxpayerId(deps: KeptRecordsRouteDeps, req: Request): string {
  if (!deps.views.isUuid(req.params.id)) throw deps.problems.create('taxpayer_not_found', 'No taxpayer with this id in your account.');
  return req.params.id;
}

async function view(
  deps: KeptRecordsRouteDeps,
  req: Request,
  res: Response,
  extra: Partial<KeptRecordsView> = {},
): Promise<KeptRecordsView> {
  const { services } = deps;
  const id = taxpayerId(deps, req);
  const taxpayer = await services.taxpayers.get(account(res), id);
  const [systems, remissions, ...exports] = await Promise.all([
    services.systems.list(account(res)),
    services.remissions.list(account(res), id),
    // Read by their type: among the summaries and checks of a busy log, exports are few and may be old.
    ...EXPORT_EVENTS.map((type) => services.eventLog.list(account(res), id, { order: 'desc', limit: EXPORTS_SHOWN, type })),
  ]);
  const latest = remissions[0] && (await services.remissions.get(account(res), id, remissions[0].id));
  return {
    taxpayer,
    systems: systems.filter((s) => !s.onlySupportsVerifactu),
    exports: exports.flat().sort((a, b) => b.generatedAt.getTime() - a.generatedAt.getTime()),
    remissions,
    latest,
    notice: noticeFrom(req),
    ...extra,
  };
}

/** A refusal the reader can act on goes back to its form; anything else is the error page's. */
async function refuse(deps: KeptRecordsRouteDeps, req: Request, res: Response, form: KeptForm, err: unknown): Promise<void> {
  const problem = deps.problems.of(err);
  if (!problem || problem.status >= 500 || problem.code === 'taxpayer_not_found') throw err;
  const labels = {
    subject: t('kept.subject'),
    system_id: t('kept.system'),
    from_seq: t('kept.fromSeq'),
    to_seq: t('kept.toSeq'),
    from: t('kept.from'),
    to: t('kept.to'),
    requirement_reference: t('kept.reference'),
    period: t('kept.periodFrom'),
  };
  const errors: FormErrors = formErrorsFrom(problem, labels, { period: 'period_from' }) ?? {
    [FIRST_FIELD[form]]: REFUSALS.includes(problem.code) ? t(`kept.refused.${problem.code}`) : problem.detail,
  };
  deps.render(
    req,
    res,
    keptRecordsPage(await view(deps, req, res, { refused: { form, errors, values: typed(req.body) } })),
    problem.status,
  );
}

/** A NO VERI*FACTU taxpayer's checks, exports and remissions on request, through the API's own services and rules. */
export function keptRecordsPageRoutes(deps: KeptRecordsRouteDeps): Router {
  const router = Router();
  const { services, requests } = deps;

  router.get('/app/taxpayers/:id/kept', async (req, res) => {
    deps.render(req, res, keptRecordsPage(await view(deps, req, res)));
  });

  router.post('/app/taxpayers/:id/kept/check', async (req, res) => {
    try {
      const b = req.body as unknown;
      const body = requests.integrityCheck({
        ...subjectOf(b),
        ...(field(b, 'from_seq') ? { from_seq: seq(field(b, 'from_seq')) } : {}),
        ...(field(b, 'to_seq') ? { to_seq: seq(field(b, 'to_seq')) } : {}),
      });
      const check = await services.integrityChecks.check(account(res), taxpayerId(deps, req), body);
      deps.render(req, res, keptRecordsPage(await view(deps, req, res, { check })));
    } catch (err) {
      await refuse(deps, req, res, 'check', err);
    }
  });

  router.post('/app/taxpayers/:id/kept/export', async (req, res) => {
    try {
      const b = req.body as unknown;
      // Whole Madrid days, the last one included: the API's period ends before its `to`.
      const body = requests.periodExport({
        ...subjectOf(b),
        from: madridDayStart(field(b, 'from')),
        to: madridDayStart(field(b, 'to'), 1),
      });
      const { fileName, zip } = await services.periodExports.export(account(res), taxpayerId(deps, req), body);
      res.setHeader('Cache-Control', 'no-store');
      res
        .type('application/zip')
        .attachment(fileName)
        .send(Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength));
    } catch (err) {
      await refuse(deps, req, res, 'export', err);
    }
  });

  router.post('/app/taxpayers/:id/kept/remission', async (req, res) => {
    try {
      const b = req.body as unknown;
      const body = requests.remissionCreate({
        requirement_reference: field(b, 'requirement_reference'),
        period: { from: field(b, 'period_from'), to: field(b, 'period_to') },
      });
      const id = taxpayerId(deps, req);
      await services.remissions.start(account(res), id, body);
      res.redirect(303, `/app/taxpayers/${id}/kept?notice=remission_started`);
    } catch (err) {
      await refuse(deps, req, res, 'remission', err);
    }
  });

  return router;
}
