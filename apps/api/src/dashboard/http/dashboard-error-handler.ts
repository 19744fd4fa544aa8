import type { ErrorRequestHandler } from 'express';
import { ApiError } from '../../errors/api-error';
import { errorCatalogue } from '../../errors/error-catalogue';
import { badFormPage, notFoundPage, refusedPage, serverErrorPage } from './error-pages';
import { MalformedFormError, MAX_FORM_BYTES } from './form-body';
import type { RenderPage } from './page-renderer';

/** Dashboard errors as HTML pages in the layout, never as the API's problem+json. */
export function dashboardErrorHandler(render: RenderPage): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (res.headersSent) return next(err);
    if (err instanceof ApiError) {
      if (err.status === 404) return render(req, res, notFoundPage(), 404);
      return render(req, res, refusedPage(errorCatalogue[err.code].title, err.detail), err.status);
    }
    if (err instanceof MalformedFormError) return render(req, res, badFormPage('The form arrived incomplete or damaged'), 400);
    const type = (err as { type?: unknown })?.type;
    if (type === 'entity.too.large') {
      return render(req, res, badFormPage(`The form is larger than ${MAX_FORM_BYTES / 1024} KB; a PKCS#12 certificate is only a few KB, so check that you chose the right file`), 413);
    }
    if (typeof type === 'string' && /^(entity|request|charset|encoding)\./.test(type)) return render(req, res, badFormPage('The form could not be read'), 400);
    req.log.error({ err }, 'dashboard error');
    render(req, res, serverErrorPage(String(req.id ?? '')), 500);
  };
}
