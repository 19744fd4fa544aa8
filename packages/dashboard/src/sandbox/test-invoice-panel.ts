import { SCENARIO_NAMES, SCENARIO_PARAMETERS, SCENARIO_TEXTS } from '@vf/core';
import type { SystemRow } from '@vf/db';
import { errorSummary, inputField, selectField, type FormErrors } from '../html/form-fields';
import { html, type SafeHtml } from '../html/html';
import { csrfField, type PageContext } from '../html/layout';
import { locale, t } from '../i18n/i18n';
import { tHtml } from '../i18n/t-html';

/** What the panel shows: the account's systems, and the values and errors of a refused submission. */
export interface TestInvoicePanelView {
  systems: SystemRow[];
  values?: TestInvoiceValues;
  errors?: FormErrors;
}

export interface TestInvoiceValues {
  systemId: string;
  scenario: string;
  parameter: string;
}

/** A scenario as the select names it: with the form of its parameter. */
function scenarioLabel(name: (typeof SCENARIO_NAMES)[number]): string {
  const parameter = SCENARIO_PARAMETERS[name];
  return parameter ? `${name}:<${parameter.kind === 'code' ? t('sandbox.parameter') : 's'}>` : name;
}

/** On a sandbox taxpayer's page: send a test invoice under a scenario of the catalogue, then follow it on its page. */
export function testInvoicePanel(ctx: PageContext, taxpayerId: string, v: TestInvoicePanelView): SafeHtml {
  const values = v.values ?? { systemId: v.systems[0]?.id ?? '', scenario: 'accepted', parameter: '' };
  const errors = v.errors ?? {};
  const lang = locale() === 'en' ? 'en' : 'es';
  const form =
    v.systems.length === 0
      ? html`<p>${tHtml('sandbox.noSystem')}</p>`
      : html`${errorSummary(errors)}
          <form method="post" action="/app/taxpayers/${taxpayerId}/test-invoice" class="stack" novalidate>
            ${csrfField(ctx)}
            ${selectField({
              name: 'system_id',
              label: t('sandbox.system'),
              value: values.systemId,
              options: v.systems.map((s) => [s.id, `${s.name} (${s.installationNumber})`] as const),
              errors,
            })}
            ${selectField({
              name: 'scenario',
              label: t('sandbox.scenario'),
              value: values.scenario,
              options: SCENARIO_NAMES.map((name) => [name, scenarioLabel(name)] as const),
              errors,
            })}
            ${inputField({
              name: 'parameter',
              label: t('sandbox.parameter'),
              value: values.parameter,
              hint: t('sandbox.parameterHint'),
              errors,
              attrs: html` inputmode="numeric" maxlength="6"`,
            })}
            <div class="actions"><button type="submit" class="button">${t('sandbox.send')}</button></div>
          </form>`;
  return html`<section class="card" aria-labelledby="test-invoice-title">
    <h2 id="test-invoice-title">${t('sandbox.title')}</h2>
    <p>${t('sandbox.lead')}</p>
    ${form}
    <dl class="facts">
      ${SCENARIO_NAMES.map((name) => html`<dt><code>${scenarioLabel(name)}</code></dt><dd>${SCENARIO_TEXTS[name][lang]}</dd>`)}
    </dl>
  </section>`;
}
