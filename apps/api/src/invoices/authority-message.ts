import { explainCause, inPlainWords } from '@vf/core';
import type { InvoiceRow } from '@vf/db';

/**
 * `authority_message` as the API shows it. For a record in `error` (the service could not get it registered) it is
 * the cause in plain words with the next step, from the authority-codes module; otherwise the authority's own text.
 */
export function authorityMessageOf(
  i: Pick<InvoiceRow, 'authorityStatus' | 'authorityCode' | 'authorityMessage' | 'errorCause' | 'nextAttemptAt'>,
): string | null {
  if (i.authorityStatus !== 'error') return i.authorityMessage;
  const text = explainCause({ code: i.authorityCode, cause: i.errorCause });
  if (!text) return i.authorityMessage;
  const next = i.nextAttemptAt ? ` Next attempt: ${i.nextAttemptAt.toISOString()}.` : '';
  const raw = i.authorityMessage ? ` Authority's answer: ${i.authorityMessage}` : '';
  return `${inPlainWords(text, 'en')}${next}${raw}`;
}
