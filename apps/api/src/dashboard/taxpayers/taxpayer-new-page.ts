import { errorSummary, type FormErrors } from '../html/form-fields';
import { html } from '../html/html';
import { csrfField } from '../html/layout';
import type { Page } from '../http/page-renderer';
import { certificateFields, taxpayerFields, type TaxpayerFormValues } from './taxpayer-form';

export function taxpayerNewPage(o: { values: TaxpayerFormValues; errors?: FormErrors }): Page {
  const errors = o.errors ?? {};
  return {
    title: 'Add a taxpayer',
    nav: 'taxpayers',
    body: (ctx) => html`<p class="breadcrumb"><a href="/app/taxpayers">Taxpayers</a></p>
      <h1>Add a taxpayer</h1>
      ${errorSummary(errors)}
      <form method="post" action="/app/taxpayers" enctype="multipart/form-data" class="stack card" novalidate>
        ${csrfField(ctx)}
        ${taxpayerFields(o.values, errors, { nifLocked: false })}
        <fieldset>
          <legend>Signing</legend>
          <div class="stack">${certificateFields(errors, { optional: true })}</div>
        </fieldset>
        <div class="actions"><button type="submit" class="button">Add taxpayer</button><a href="/app/taxpayers">Cancel</a></div>
      </form>`,
  };
}
