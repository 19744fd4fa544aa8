import { formatDateTime } from '../html/format';
import { html, type SafeHtml } from '../html/html';
import { locale, t } from '../i18n/i18n';

// The service writes a record's history notes, last errors and transport errors in English: the API and webhooks
// return them as written. The dashboard says each in the reader's language, from the forms those notes take
// (workers and stores write them from a handful of templates). What the authority wrote stays as it wrote it,
// in Spanish. A Spanish page never shows an English sentence: a note of no known form is left out there (the
// status, the code and the explanation of the invoice's answer still say what happened).

type Rendered = (m: RegExpExecArray) => string;

const at = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : formatDateTime(d);
};

const NUMBER_TAKEN = /^(?:rejected: )?the authority already holds another record with number (.+) of (\S+) \(huella (.+)\)$/;

const HELD = 'the authority holds this very record \\(same huella, confirmed by the Consulta service\\)';

/** The forms of a retry's reason: what went wrong, and when the record goes again. */
const RETRY_FORMS: [RegExp, Rendered][] = [
  [/^.+; failing since (\S+); next attempt at (\S+)$/s, (m) => t('history.outage', { since: at(m[1]), next: at(m[2]) })],
  [/^.+; next attempt at (\S+)$/s, (m) => t('history.retry', { next: at(m[1]) })],
];

/** Most specific first. */
const NOTE_FORMS: [RegExp, Rendered][] = [
  [/^sent to the authority \(attempt (\d+)\)$/, (m) => t('history.sent', { attempt: m[1] })],
  [/^accepted by the authority \(CSV (.+)\)$/, (m) => t('history.acceptedCsv', { csv: m[1] })],
  [/^accepted by the authority$/, () => t('history.accepted')],
  [/^accepted with errors: (.*)$/s, (m) => t('history.acceptedWithErrors', { detail: m[1] })],
  [NUMBER_TAKEN, (m) => t('history.numberTaken', { number: m[1], date: m[2] })],
  [/^rejected: the Consulta service shows the authority holds no record of this invoice$/, () => t('history.noneHeld')],
  [/^rejected: (.*)$/s, (m) => t('history.rejected', { detail: m[1] })],
  [new RegExp(`^${HELD}: Correcto$`), () => t('history.heldAccepted')],
  [new RegExp(`^${HELD}: AceptadoConErrores ?(.*)$`, 's'), (m) => t('history.heldWithErrors', { detail: m[1] })],
  [new RegExp(`^${HELD}, since cancelled \\(Anulado\\)$`), () => t('history.heldCancelled')],
  [
    /^error: the authority refused the whole message \(([^,)]+)(?:, code (\d+))?\); nothing was registered$/,
    (m) => (m[2] ? t('history.messageRefusedCode', { fault: m[1], code: m[2] }) : t('history.messageRefused', { fault: m[1] })),
  ],
  // Written by versions that held a chain behind a 2007, kept in the records' history.
  [/^error: stored by the authority with error (.*); needs attention$/s, (m) => t('history.storedNeedsAttention', { detail: m[1] })],
  [/^error: .*; nothing was registered$/s, () => t('history.messageRefusedPlain')],
  [/^the authority refused the whole message \(([^)]+)\): .*$/s, (m) => t('history.messageRefused', { fault: m[1] })],
  [/^(?:error before sending: )?waiting for the earlier record (\S+), which needs attention$/, () => t('history.waitingEarlier')],
  [/^error before sending: .*$/s, () => t('history.notSent')],
  [/^resent on request$/, () => t('history.resent')],
  [/^the taxpayer's certificate or data changed: sent again$/, () => t('history.resentAfterChange')],
  [/^sending resumed by an operator after the access suspension \(4141\): sent again$/, () => t('history.resentAfterSuspension')],
  [
    /^the earlier record was registered by the authority with 2007 and no longer holds the chain: sent again$/,
    () => t('history.resentAfter2007'),
  ],
  ...RETRY_FORMS.map(([form, render]): [RegExp, Rendered] => [new RegExp(`^(?:error: )?${form.source.slice(1)}`, 's'), render]),
];

function known(text: string, forms: [RegExp, Rendered][]): string | undefined {
  for (const [form, render] of forms) {
    const m = form.exec(text);
    if (m) return render(m);
  }
  return undefined;
}

/**
 * A record's authority_message: the authority's own text (Spanish, marked so), or the service's account of a
 * number taken by another record, in the reader's language.
 */
export function authorityMessageText(message: string): SafeHtml {
  const taken = NUMBER_TAKEN.exec(message);
  if (taken) return html`${locale() === 'en' ? message : t('history.numberTaken', { number: taken[1], date: taken[2] })}`;
  return html`<span lang="es">${message}</span>`;
}

/** A history note (a status event's message) in the reader's language; empty when there is nothing to say in it. */
export function historyNote(message: string | null): string {
  if (!message) return '';
  if (locale() === 'en') return message;
  return known(message, NOTE_FORMS) ?? '';
}

/**
 * Why the latest send of a record failed (its last_error, or a submission's error message), in the reader's
 * language: a Spanish page says it in general words (the cause is technical and in English).
 */
export function failureText(text: string | null): string {
  if (!text) return '';
  if (locale() === 'en') return text;
  return known(text, NOTE_FORMS) ?? t('history.sendFailed');
}
