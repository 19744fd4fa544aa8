import { html } from '../html/html';
import { locale, t } from '../i18n/i18n';
import type { Page } from './page-renderer';

export function notFoundPage(): Page {
  return {
    title: t('errorPage.notFoundTitle'),
    body: () => html`<h1>${t('errorPage.notFoundTitle')}</h1>
      <p>${t('errorPage.notFound')}</p>
      <p><a href="/app">${t('errorPage.toOverview')}</a></p>`,
  };
}

export function csrfRefusedPage(): Page {
  return {
    title: t('errorPage.csrfTitle'),
    body: () => html`<h1>${t('errorPage.csrfHeading')}</h1>
      <p>${t('errorPage.csrfBody')}</p>
      <p>${t('errorPage.csrfAgain')}</p>
      <p><a href="/app">${t('errorPage.toOverview')}</a></p>`,
  };
}

export function badFormPage(detail: string): Page {
  return {
    title: t('errorPage.badFormTitle'),
    body: () => html`<h1>${t('errorPage.badFormHeading')}</h1><p>${t('errorPage.badFormBody', { detail })}</p>`,
  };
}

export function serverErrorPage(requestId: string): Page {
  return {
    title: t('errorPage.serverTitle'),
    body: () => html`<h1>${t('errorPage.serverHeading')}</h1>
      <p>${t('errorPage.serverBody')} <code>${requestId}</code>.</p>`,
  };
}

/** The refusal's title by its HTTP status; the API's own titles are English. */
function refusedTitle(status: number): string {
  if (status === 401 || status === 403) return t('errorPage.refused.forbidden');
  if (status === 409) return t('errorPage.refused.conflict');
  if (status === 422) return t('errorPage.refused.invalid');
  if (status === 429) return t('errorPage.refused.tooMany');
  if (status === 503) return t('errorPage.refused.unavailable');
  return t('errorPage.refused.other');
}

const EXPLAINED_REFUSALS = ['quota_exceeded', 'too_many_attempts', 'service_unavailable', 'unsupported_content_encoding'];

/**
 * A refusal the page does not handle itself. English is the API's own language, so an English page shows its precise
 * detail; another language says it through the catalogue.
 */
export function refusedPage(status: number, code: string, apiDetail: string): Page {
  const title = refusedTitle(status);
  const detail = locale() === 'en' ? apiDetail : t(`errorPage.refusedBody.${EXPLAINED_REFUSALS.includes(code) ? code : 'other'}`);
  return {
    title,
    body: () => html`<h1>${title}</h1><p>${detail}</p><p><a href="/app">${t('errorPage.toOverview')}</a></p>`,
  };
}
