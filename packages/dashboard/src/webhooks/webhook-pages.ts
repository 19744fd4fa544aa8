import { WEBHOOK_EVENT_TYPES } from '@vf/core';
import type { WebhookDeliveryRow, WebhookEndpointRow } from '@vf/db';
import { formatDateTime } from '../html/format';
import { errorSummary, inputField, type FormErrors } from '../html/form-fields';
import { html, raw, type SafeHtml } from '../html/html';
import { csrfField, type PageContext } from '../html/layout';
import type { Page } from '../http/page-renderer';
import { t } from '../i18n/i18n';
import { deliveryFailureText, deliveryStatusLabel, eventLabel, webhookNoticeText } from './webhook-labels';

export interface WebhookFormValues {
  url: string;
  events: string[];
}

function notice(code: unknown): SafeHtml {
  const text = webhookNoticeText(code);
  return text ? html`<div class="notice notice--success" role="status"><p>${text}</p></div>` : html``;
}

function addForm(ctx: PageContext, values: WebhookFormValues, errors: FormErrors): SafeHtml {
  return html`<section class="card" aria-labelledby="add-webhook-title">
    <h2 id="add-webhook-title">${t('webhooks.addTitle')}</h2>
    ${errorSummary(errors)}
    <form method="post" action="/app/webhooks" novalidate>
      ${csrfField(ctx)}
      ${inputField({
        name: 'url',
        label: 'URL',
        value: values.url,
        required: true,
        errors,
        hint: t('webhooks.urlHint'),
        attrs: html` inputmode="url" maxlength="2000"`,
      })}
      <fieldset class="field"${errors.events ? html` aria-describedby="field-events-error"` : ''}>
        <legend>${t('webhooks.events')}</legend>
        ${errors.events ? html`<p class="field-error" id="field-events-error">${errors.events}</p>` : ''}
        ${WEBHOOK_EVENT_TYPES.map(
          (type) => html`<div class="check">
            <input id="event-${type}" name="events" type="checkbox" value="${type}"${values.events.includes(type) ? html` checked` : ''}>
            <label for="event-${type}">${eventLabel(type)} <code>${type}</code></label>
          </div>`,
        )}
      </fieldset>
      <div class="actions"><button type="submit" class="button">${t('webhooks.add')}</button></div>
    </form>
  </section>`;
}

export function webhookListPage(o: {
  endpoints: WebhookEndpointRow[];
  values: WebhookFormValues;
  errors?: FormErrors;
  notice?: unknown;
}): Page {
  return {
    title: t('webhooks.title'),
    nav: 'webhooks',
    body: (ctx) => html`<div class="page-header"><h1>${t('webhooks.title')}</h1></div>
      ${notice(o.notice)}
      <p class="lead">${t('webhooks.lead')}</p>
      ${
        o.endpoints.length === 0
          ? html`<p class="empty">${t('webhooks.none')}</p>`
          : html`<table class="responsive">
        <thead><tr><th scope="col">URL</th><th scope="col">${t('webhooks.colEvents')}</th><th scope="col">${t('webhooks.colCreated')}</th></tr></thead>
        <tbody>${o.endpoints.map(
          (e) => html`<tr>
            <td data-label="URL"><a href="/app/webhooks/${e.id}">${e.url}</a></td>
            <td data-label="${t('webhooks.colEvents')}">${e.events.map((type) => html`<code>${type}</code> `)}</td>
            <td data-label="${t('webhooks.colCreated')}">${formatDateTime(e.createdAt)}</td>
          </tr>`,
        )}</tbody>
      </table>`
      }
      ${addForm(ctx, o.values, o.errors ?? {})}`,
  };
}

function secretPanel(secret: string): SafeHtml {
  return html`<section class="card" aria-labelledby="secret-title">
    <h2 id="secret-title">${t('webhooks.secretTitle')}</h2>
    <div class="notice notice--warn"><p><strong>${t('webhooks.secretOnce')}</strong>
      ${raw(t('webhooks.secretUse'))}</p></div>
    <div class="secret">
      <code id="webhook-secret" data-testid="webhook-secret">${secret}</code>
      <button type="button" class="button button--secondary button--small" data-copy-target="#webhook-secret" hidden>${t('webhooks.copy')}</button>
    </div>
  </section>`;
}

function deliveryTable(deliveries: WebhookDeliveryRow[]): SafeHtml {
  if (deliveries.length === 0) return html`<p class="empty">${t('webhooks.noDeliveries')}</p>`;
  const [event, status, attempts, lastAnswer, nextAttempt, created] = [
    'colEvent',
    'colStatus',
    'colAttempts',
    'colLastAnswer',
    'colNextAttempt',
    'colCreated',
  ].map((k) => t(`webhooks.${k}`));
  return html`<table class="responsive">
    <thead><tr><th scope="col">${event}</th><th scope="col">${status}</th><th scope="col">${attempts}</th><th scope="col">${lastAnswer}</th><th scope="col">${nextAttempt}</th><th scope="col">${created}</th></tr></thead>
    <tbody>${deliveries.map(
      (d) => html`<tr>
        <td data-label="${event}"><code>${d.eventType}</code>${d.invoiceId ? html` <a href="/app/invoices/${d.invoiceId}">${t('webhooks.invoiceLink')}</a>` : ''}</td>
        <td data-label="${status}">${deliveryStatusLabel(d.status)}</td>
        <td data-label="${attempts}">${d.attempts}</td>
        <td data-label="${lastAnswer}">${d.lastResponseCode ?? (d.lastError ? deliveryFailureText(d.lastError) : '—')}</td>
        <td data-label="${nextAttempt}">${d.status === 'pending' ? formatDateTime(d.nextAttemptAt) : '—'}</td>
        <td data-label="${created}">${formatDateTime(d.createdAt)}</td>
      </tr>`,
    )}</tbody>
  </table>`;
}

export function webhookDetailPage(o: {
  endpoint: WebhookEndpointRow;
  secret?: string;
  deliveries: WebhookDeliveryRow[];
  notice?: unknown;
}): Page {
  const e = o.endpoint;
  return {
    title: t('webhooks.detailTitle'),
    nav: 'webhooks',
    body: (
      ctx,
    ) => html`<div class="page-header"><h1>${t('webhooks.detailTitle')}</h1><a href="/app/webhooks">← ${t('webhooks.title')}</a></div>
      ${notice(o.notice)}
      ${o.secret ? secretPanel(o.secret) : ''}
      <section class="card" aria-labelledby="endpoint-title">
        <h2 id="endpoint-title">${e.url}</h2>
        <p>${t('webhooks.events')}: ${e.events.map((type) => html`<code>${type}</code> `)}</p>
        <div class="actions">
          <form method="post" action="/app/webhooks/${e.id}/test">${csrfField(ctx)}<button type="submit" class="button">${t('webhooks.sendTest')}</button></form>
          <form method="post" action="/app/webhooks/${e.id}/delete">${csrfField(ctx)}<button type="submit" class="button button--danger">${t('webhooks.delete')}</button></form>
        </div>
      </section>
      <section class="card" aria-labelledby="deliveries-title">
        <h2 id="deliveries-title">${t('webhooks.deliveriesTitle')}</h2>
        <p class="hint">${t('webhooks.deliveriesHint')}</p>
        ${deliveryTable(o.deliveries)}
      </section>`,
  };
}
