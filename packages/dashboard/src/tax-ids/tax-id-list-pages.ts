import type { TaxIdListRow } from '@vf/db';
import { errorSummary, inputField, selectField, type FormErrors } from '../html/form-fields';
import { html, type SafeHtml } from '../html/html';
import { csrfField, type PageContext } from '../html/layout';
import type { Page } from '../http/page-renderer';
import { INTL_LOCALE, locale, t } from '../i18n/i18n';

const number = (n: number) => new Intl.NumberFormat(INTL_LOCALE[locale()]).format(n);

/** How far the workers are with a list, in the page's language. */
export function progressText(list: Pick<TaxIdListRow, 'answered' | 'total'>): string {
  return t('taxIds.progress', { answered: number(list.answered), total: number(list.total) });
}

/** The account's default `recipient_check` for registrations, as PUT /account/settings sets it. */
function recipientCheckDefault(ctx: PageContext, current: string): SafeHtml {
  return html`<section class="card" aria-labelledby="recipient-check-title">
    <h2 id="recipient-check-title">${t('taxIds.defaultTitle')}</h2>
    <p>${t('taxIds.defaultLead')}</p>
    <form method="post" action="/app/tax-ids/recipient-check" class="stack">
      ${csrfField(ctx)}
      ${selectField({
        name: 'recipient_check',
        label: t('taxIds.defaultLabel'),
        value: current,
        options: [
          ['', t('taxIds.defaultNone')],
          ['warn', t('taxIds.defaultWarn')],
          ['refuse', t('taxIds.defaultRefuse')],
        ],
      })}
      <div class="actions"><button type="submit" class="button button--secondary">${t('taxIds.save')}</button></div>
    </form>
  </section>`;
}

/** The list check's start (upload a CSV of up to 10,000 tax IDs), and the account's recipient check default. */
export function taxIdUploadPage(v: { recipientCheck: string; notice?: SafeHtml; errors?: FormErrors }): Page {
  const errors = v.errors ?? {};
  return {
    title: t('taxIds.title'),
    nav: 'tax-ids',
    narrow: true,
    body: (ctx) => html`<h1>${t('taxIds.title')}</h1>
      ${v.notice ?? ''}
      <p>${t('taxIds.lead')}</p>
      ${errorSummary(errors)}
      <form method="post" action="/app/tax-ids" enctype="multipart/form-data" class="stack" novalidate>
        ${csrfField(ctx)}
        ${inputField({ name: 'file', label: t('taxIds.file'), type: 'file', required: true, hint: t('taxIds.fileHint'), errors, attrs: html` accept=".csv,text/csv"` })}
        <div class="actions"><button type="submit" class="button">${t('taxIds.submit')}</button></div>
      </form>
      ${recipientCheckDefault(ctx, v.recipientCheck)}`,
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
