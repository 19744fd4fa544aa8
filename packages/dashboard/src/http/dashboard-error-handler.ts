import type { ErrorRequestHandler } from 'express';
import type { ApiProblems } from '../dashboard-api';
import { t } from '../i18n/i18n';
import { badFormPage, notFoundPage, refusedPage, serverErrorPage } from './error-pages';
import { MalformedFormError, MAX_FORM_BYTES } from './form-body';
import type { RenderPage } from './page-renderer';

/** Dashboard errors as HTML pages in the layout, never as the API's problem+json. */
export function dashboardErrorHandler(render: RenderPage, problems: ApiProblems): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (res.headersSent) return problems.cutShort(req, res, err);
    const known = problems.known(err);
    if (known) {
      for (const [name, value] of Object.entries(known.options.headers ?? {})) res.setHeader(name, value);
      if (known.code === 'service_unavailable') req.log.warn({ err }, 'dependency unavailable');
      if (known.status === 404) return render(req, res, notFoundPage(), 404);
      if (known.code === 'too_many_fields') return render(req, res, badFormPage(t('errorPage.tooManyFields')), 413);
      if (known.status === 413) return render(req, res, badFormPage(t('errorPage.tooLarge', { kb: MAX_FORM_BYTES / 1024 })), 413);
      if (known.status === 400 && known.code !== 'malformed_url') return render(req, res, badFormPage(t('errorPage.unreadable')), 400);
      return render(req, res, refusedPage(known.status, known.code, known.detail), known.status);
    }
    if (err instanceof MalformedFormError) return render(req, res, badFormPage(t('errorPage.damaged')), 400);
    req.log.error({ err }, 'dashboard error');
    render(req, res, serverErrorPage(String(req.id ?? '')), 500);
  };
}
