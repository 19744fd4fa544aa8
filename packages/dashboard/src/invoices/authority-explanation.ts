import { explainCause } from '@vf/core';
import type { InvoiceRow } from '@vf/db';
import { formatDateTime } from '../html/format';
import { html, type SafeHtml } from '../html/html';
import { csrfField, type PageContext } from '../html/layout';
import { locale, t } from '../i18n/i18n';
import { authorityMessageText } from './history-text';

type Explained = Pick<InvoiceRow, 'id' | 'authorityStatus' | 'authorityCode' | 'authorityMessage' | 'errorCause' | 'nextAttemptAt'>;

/**
 * The authority's answer said once, in plain words and in the reader's language (the texts of
 * `@vf/core`'s authority codes): what happened and what to do next; the authority's own text (always Spanish) stays
 * one click away. Undefined when there is nothing to explain.
 */
export function authorityExplanation(i: Explained): SafeHtml | undefined {
  const text = explainCause({ code: i.authorityCode, cause: i.errorCause });
  if (!text) return undefined;
  const words = text[locale()];
  const code = i.authorityCode !== null ? html`<strong>${t('explanation.code', { code: i.authorityCode })}</strong> ` : '';
  return html`<div class="explanation" data-testid="authority-explanation">
    <p>${code}${words.explanation} <strong>${t('explanation.nextStep')}</strong> ${words.nextStep}</p>
    ${i.authorityMessage ? html`<details><summary>${t('explanation.authorityText')}</summary><p>${authorityMessageText(i.authorityMessage)}</p></details>` : ''}
  </div>`;
}

/**
 * A code (or a service cause) in plain words, in the reader's language, for the places that show a code in passing
 * (lists, older records, the overview): the explanation without the next step. Undefined when there is nothing to say.
 */
export function codeInWords(ref: { code: number | null; cause?: string | null }): string | undefined {
  if (ref.code === null && !ref.cause) return undefined;
  return explainCause(ref)?.[locale()].explanation;
}

/** When the workers try the record again, if they will. */
export function nextAttemptFact(i: Explained): SafeHtml {
  if (!i.nextAttemptAt) return html``;
  return html`<dt>${t('explanation.nextAttempt')}</dt><dd><time datetime="${i.nextAttemptAt.toISOString()}">${formatDateTime(i.nextAttemptAt)}</time></dd>`;
}

/** Resend of a record in `error`: the same record goes again, unchanged. */
export function resendForm(ctx: PageContext, i: Explained): SafeHtml {
  if (i.authorityStatus !== 'error') return html``;
  return html`<form method="post" action="/app/invoices/${i.id}/resend" class="inline-form">
    ${csrfField(ctx)}<button type="submit" class="button" data-testid="resend">${t('explanation.resend')}</button>
    <span class="hint">${t('explanation.resendHint')}</span>
  </form>`;
}
