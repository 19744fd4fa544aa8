import { WEBHOOK_EVENT_TYPES } from '@vf/core';
import type { WebhookDeliveryRow, WebhookEndpointRow } from '@vf/db/src/stores';
import { formatDateTime } from '../html/format';
import { errorSummary, inputField, type FormErrors } from '../html/form-fields';
import { html, type SafeHtml } from '../html/html';
import { csrfField, type PageContext } from '../html/layout';
import type { Page } from '../http/page-renderer';
import { DELIVERY_STATUS_LABELS, EVENT_LABELS, webhookNoticeText } from './webhook-labels';

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
    <h2 id="add-webhook-title">Añadir un webhook / Add a webhook</h2>
    ${errorSummary(errors)}
    <form method="post" action="/app/webhooks" novalidate>
      ${csrfField(ctx)}
      ${inputField({
        name: 'url',
        label: 'URL',
        value: values.url,
        required: true,
        errors,
        hint: 'https://… (http solo para localhost / 127.0.0.1 en desarrollo). / https://… (http only for localhost / 127.0.0.1 in development).',
        attrs: html` inputmode="url" maxlength="2000"`,
      })}
      <fieldset class="field"${errors.events ? html` aria-describedby="field-events-error"` : ''}>
        <legend>Eventos / Events</legend>
        ${errors.events ? html`<p class="field-error" id="field-events-error">${errors.events}</p>` : ''}
        ${WEBHOOK_EVENT_TYPES.map(
          (type) => html`<div class="check">
            <input id="event-${type}" name="events" type="checkbox" value="${type}"${values.events.includes(type) ? html` checked` : ''}>
            <label for="event-${type}">${EVENT_LABELS[type]} <code>${type}</code></label>
          </div>`,
        )}
      </fieldset>
      <div class="actions"><button type="submit" class="button">Añadir / Add</button></div>
    </form>
  </section>`;
}

export function webhookListPage(o: { endpoints: WebhookEndpointRow[]; values: WebhookFormValues; errors?: FormErrors; notice?: unknown }): Page {
  return {
    title: 'Webhooks',
    nav: 'webhooks',
    body: (ctx) => html`<div class="page-header"><h1>Webhooks</h1></div>
      ${notice(o.notice)}
      <p class="lead">Avisos firmados a su sistema cuando una factura se registra o cambia de estado en la AEAT (Standard Webhooks). /
        Signed notices to your system when an invoice is registered or its status at the authority changes.</p>
      ${o.endpoints.length === 0
        ? html`<p class="empty">Todavía no hay webhooks. / No webhooks yet.</p>`
        : html`<table class="responsive">
        <thead><tr><th scope="col">URL</th><th scope="col">Eventos / Events</th><th scope="col">Creado / Created</th></tr></thead>
        <tbody>${o.endpoints.map(
          (e) => html`<tr>
            <td data-label="URL"><a href="/app/webhooks/${e.id}">${e.url}</a></td>
            <td data-label="Eventos / Events">${e.events.map((t) => html`<code>${t}</code> `)}</td>
            <td data-label="Creado / Created">${formatDateTime(e.createdAt)}</td>
          </tr>`,
        )}</tbody>
      </table>`}
      ${addForm(ctx, o.values, o.errors ?? {})}`,
  };
}

function secretPanel(secret: string): SafeHtml {
  return html`<section class="card" aria-labelledby="secret-title">
    <h2 id="secret-title">Secreto de firma / Signing secret</h2>
    <div class="notice notice--warn"><p><strong>Cópielo ahora: solo se muestra esta vez. / Copy it now: it is shown only this once.</strong>
      Su receptor lo usa para verificar la cabecera <code>webhook-signature</code>. / Your receiver uses it to verify the <code>webhook-signature</code> header.</p></div>
    <div class="secret">
      <code id="webhook-secret" data-testid="webhook-secret">${secret}</code>
      <button type="button" class="button button--secondary button--small" data-copy-target="#webhook-secret" hidden>Copiar / Copy</button>
    </div>
  </section>`;
}

function deliveryTable(deliveries: WebhookDeliveryRow[]): SafeHtml {
  if (deliveries.length === 0) return html`<p class="empty">Sin envíos todavía. / No deliveries yet.</p>`;
  return html`<table class="responsive">
    <thead><tr><th scope="col">Evento / Event</th><th scope="col">Estado / Status</th><th scope="col">Intentos / Attempts</th><th scope="col">Última respuesta / Last answer</th><th scope="col">Próximo intento / Next attempt</th><th scope="col">Creado / Created</th></tr></thead>
    <tbody>${deliveries.map(
      (d) => html`<tr>
        <td data-label="Evento / Event"><code>${d.eventType}</code>${d.invoiceId ? html` <a href="/app/invoices/${d.invoiceId}">factura / invoice</a>` : ''}</td>
        <td data-label="Estado / Status">${DELIVERY_STATUS_LABELS[d.status]}</td>
        <td data-label="Intentos / Attempts">${d.attempts}</td>
        <td data-label="Última respuesta / Last answer">${d.lastResponseCode ?? d.lastError ?? '—'}</td>
        <td data-label="Próximo intento / Next attempt">${d.status === 'pending' ? formatDateTime(d.nextAttemptAt) : '—'}</td>
        <td data-label="Creado / Created">${formatDateTime(d.createdAt)}</td>
      </tr>`,
    )}</tbody>
  </table>`;
}

export function webhookDetailPage(o: { endpoint: WebhookEndpointRow; secret?: string; deliveries: WebhookDeliveryRow[]; notice?: unknown }): Page {
  const e = o.endpoint;
  return {
    title: 'Webhook',
    nav: 'webhooks',
    body: (ctx) => html`<div class="page-header"><h1>Webhook</h1><a href="/app/webhooks">← Webhooks</a></div>
      ${notice(o.notice)}
      ${o.secret ? secretPanel(o.secret) : ''}
      <section class="card" aria-labelledby="endpoint-title">
        <h2 id="endpoint-title">${e.url}</h2>
        <p>Eventos / Events: ${e.events.map((t) => html`<code>${t}</code> `)}</p>
        <div class="actions">
          <form method="post" action="/app/webhooks/${e.id}/test">${csrfField(ctx)}<button type="submit" class="button">Enviar prueba / Send test</button></form>
          <form method="post" action="/app/webhooks/${e.id}/delete">${csrfField(ctx)}<button type="submit" class="button button--danger">Eliminar / Delete</button></form>
        </div>
      </section>
      <section class="card" aria-labelledby="deliveries-title">
        <h2 id="deliveries-title">Envíos recientes / Recent deliveries</h2>
        <p class="hint">Los fallos se reintentan durante más de 24 h; los avisos de una factura llegan en orden. / Failures are retried for over 24 h; an invoice's notices arrive in order.</p>
        ${deliveryTable(o.deliveries)}
      </section>`,
  };
}
