import { explainCause } from '@vf/core';
import type { InvoiceRow } from '@vf/db/src/stores';
import { formatDateTime } from '../html/format';
import { html, type SafeHtml } from '../html/html';
import { csrfField, type PageContext } from '../html/layout';

type Explained = Pick<InvoiceRow, 'id' | 'authorityStatus' | 'authorityCode' | 'authorityMessage' | 'errorCause' | 'nextAttemptAt'>;

/**
 * The authority's answer said once, in plain words: what happened and what to do next, Spanish first, then English;
 * the authority's own text stays one click away. Undefined when there is nothing to explain.
 */
export function authorityExplanation(i: Explained): SafeHtml | undefined {
  const text = explainCause({ code: i.authorityCode, cause: i.errorCause });
  if (!text) return undefined;
  const code = i.authorityCode !== null ? html`<strong>Código ${i.authorityCode}.</strong> ` : '';
  return html`<div class="explanation" data-testid="authority-explanation">
    <p lang="es">${code}${text.es.explanation} <strong>Qué hacer:</strong> ${text.es.nextStep}</p>
    <p lang="en" class="muted">${text.en.explanation} Next step: ${text.en.nextStep}</p>
    ${i.authorityMessage ? html`<details><summary>Texto de la AEAT / Authority's text</summary><p lang="es">${i.authorityMessage}</p></details>` : ''}
  </div>`;
}

/** When the workers try the record again, if they will. */
export function nextAttemptFact(i: Explained): SafeHtml {
  if (!i.nextAttemptAt) return html``;
  return html`<dt>Próximo intento / Next attempt</dt><dd><time datetime="${i.nextAttemptAt.toISOString()}">${formatDateTime(i.nextAttemptAt)}</time></dd>`;
}

/** Resend of a record in `error`: the same record goes again, unchanged. */
export function resendForm(ctx: PageContext, i: Explained): SafeHtml {
  if (i.authorityStatus !== 'error') return html``;
  return html`<form method="post" action="/app/invoices/${i.id}/resend" class="inline-form">
    ${csrfField(ctx)}<button type="submit" class="button" data-testid="resend">Reenviar / Resend</button>
    <span class="hint">Se envía de nuevo el mismo registro, sin cambios (misma huella). / The same record goes again, unchanged.</span>
  </form>`;
}
