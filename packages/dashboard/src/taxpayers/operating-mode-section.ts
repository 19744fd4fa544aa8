import type { TaxpayerView } from '@vf/db';
import { formatInvoiceDate } from '../html/format';
import { html, type SafeHtml } from '../html/html';
import { csrfField, type PageContext } from '../html/layout';
import { t } from '../i18n/i18n';

/** The mode in force now: VERI*FACTU until the day after a declared end (Europe/Madrid), as the API computes it. */
export function modeInForce(tp: TaxpayerView, today: string): 'verifactu' | 'no_verifactu' {
  if (tp.operatingMode === 'verifactu' && tp.verifactuUntil !== null && today > tp.verifactuUntil) return 'no_verifactu';
  return tp.operatingMode ?? 'verifactu';
}

/** The taxpayer's operating mode, its integrity alarm when there is one, the event log and the form to change mode. */
export function operatingModeSection(ctx: PageContext, tp: TaxpayerView, today: string, refused?: string): SafeHtml {
  const mode = modeInForce(tp, today);
  const alarm = tp.integrityAlarm
    ? html`<div class="notice notice--error" role="alert" data-testid="integrity-alarm"><p>${t('mode.alarm')}</p></div>`
    : '';
  const endsOn =
    mode === 'verifactu' && tp.verifactuUntil
      ? html`<p data-testid="verifactu-ends">${t('mode.endsOn', { date: formatInvoiceDate(tp.verifactuUntil) })}</p>`
      : '';
  const option = (value: 'verifactu' | 'no_verifactu') =>
    html`<option value="${value}"${value === mode ? html` selected` : ''}>${t(`mode.${value}`)}</option>`;
  return html`<section class="card" aria-labelledby="mode-title">
    <h2 id="mode-title">${t('mode.title')}</h2>
    ${alarm}
    ${refused ? html`<div class="notice notice--error" role="alert"><p>${refused}</p></div>` : ''}
    <dl class="facts">
      <dt>${t('mode.inForce')}</dt><dd><strong data-testid="operating-mode">${t(`mode.${mode}`)}</strong></dd>
    </dl>
    <p>${mode === 'verifactu' ? t('mode.verifactuExplained') : t('mode.noVerifactuExplained')}</p>
    ${endsOn}
    <p><a href="/app/taxpayers/${tp.id}/events">${t('mode.events')}</a> · <a href="/app/taxpayers/${tp.id}/kept">${t('kept.link')}</a></p>
    <form method="post" action="/app/taxpayers/${tp.id}/mode" class="stack">
      ${csrfField(ctx)}
      <div class="field">
        <label for="field-operating-mode">${t('mode.change')}</label>
        <select id="field-operating-mode" name="operating_mode">${option('verifactu')}${option('no_verifactu')}</select>
        <p class="hint">${t('mode.changeHint')}</p>
      </div>
      <div class="actions"><button type="submit" class="button button--secondary">${t('mode.save')}</button></div>
    </form>
  </section>`;
}
