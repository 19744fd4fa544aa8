import type { TaxIdListRow } from '@vf/db';
import { errorSummary, inputField, type FormErrors } from '../html/form-fields';
import { html } from '../html/html';
import { csrfField } from '../html/layout';
import type { Page } from '../http/page-renderer';
import { INTL_LOCALE, locale, t } from '../i18n/i18n';

const number = (n: number) => new Intl.NumberFormat(INTL_LOCALE[locale()]).format(n);

/** How far the workers are with a list, in the page's language. */
export function progressText(list: Pick<TaxIdListRow, 'answered' | 'total'>): string {
  return t('taxIds.progress', { answered: number(list.answered), total: number(list.total) });
}

/** The list check's start: upload a CSV of up to 10,000 tax IDs. */
export function taxIdUploadPage(errors: FormErrors = {}): Page {
  return {
    title: t('taxIds.title'),
    nav: 'tax-ids',
    narrow: true,
    body: (ctx) => html`<h1>${t('taxIds.title')}</h1>
      <p>${t('taxIds.lead')}</p>
      ${errorSummary(errors)}
      <form method="post" action="/app/tax-ids" enctype="multipart/form-data" class="stack" novalidate>
        ${csrfField(ctx)}
        ${inputField({ name: 'file', label: t('taxIds.file'), type: 'file', required: true, hint: t('taxIds.fileHint'), errors, attrs: html` accept=".csv,text/csv"` })}
        <div class="actions"><button type="submit" class="button">${t('taxIds.submit')}</button></div>
      </form>`,
  };
}

/** One list: its progress while the workers check it (the script polls it), then its results to download. */
export function taxIdListPage(list: TaxIdListRow): Page {
  const done = list.status === 'done';
  const progress = progressText(list);
  return {
    title: t('taxIds.listTitle'),
    nav: 'tax-ids',
    narrow: true,
    body: () => html`<h1>${t('taxIds.listTitle')}</h1>
      <div class="stack" data-list-progress-url="${done ? '' : `/app/tax-ids/lists/${list.id}/progress`}">
        <progress max="${list.total}" value="${list.answered}" aria-label="${progress}"></progress>
        <p data-testid="list-progress" aria-live="polite">${progress}</p>
        <p data-testid="list-status">${done ? t('taxIds.done') : t('taxIds.pending')}</p>
        ${done ? html`<p><a class="button" href="/app/tax-ids/lists/${list.id}/results.csv" download>${t('taxIds.download')}</a></p>` : ''}
        <p><a href="/app/tax-ids">${t('taxIds.another')}</a></p>
      </div>`,
  };
}
