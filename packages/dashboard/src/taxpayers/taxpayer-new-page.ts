import { errorSummary, type FormErrors } from '../html/form-fields';
import { html } from '../html/html';
import { csrfField } from '../html/layout';
import type { Page } from '../http/page-renderer';
import { t } from '../i18n/i18n';
import { certificateFields, taxpayerFields, type TaxpayerFormValues } from './taxpayer-form';

export function taxpayerNewPage(o: { values: TaxpayerFormValues; errors?: FormErrors }): Page {
  const errors = o.errors ?? {};
  return {
    title: t('taxpayers.newTitle'),
    nav: 'taxpayers',
    body: (ctx) => html`<p class="breadcrumb"><a href="/app/taxpayers">${t('taxpayers.title')}</a></p>
      <h1>${t('taxpayers.newTitle')}</h1>
      ${errorSummary(errors)}
      <form method="post" action="/app/taxpayers" enctype="multipart/form-data" class="stack card" novalidate>
        ${csrfField(ctx)}
        ${taxpayerFields(o.values, errors, { nifLocked: false })}
        <fieldset>
          <legend>${t('taxpayers.signing')}</legend>
          <div class="stack">${certificateFields(errors, { optional: true })}</div>
        </fieldset>
        <div class="actions"><button type="submit" class="button">${t('taxpayers.submitNew')}</button><a href="/app/taxpayers">${t('taxpayers.cancel')}</a></div>
      </form>`,
  };
}
