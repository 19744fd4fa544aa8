import type { FieldIssue } from '@vf/contract';
import type { Problem } from '../dashboard-api';
import type { FormErrors } from '../html/form-fields';
import { locale, t } from '../i18n/i18n';

/** The API's stable issue codes the catalogue says in the reader's language with their own sentence. */
export const TRANSLATED_CODES = [
  'required',
  'too_long',
  'too_short',
  'invalid_format',
  'invalid_value',
  'invalid_type',
  'invalid_nif',
  'out_of_range',
  'not_allowed',
  'date_order',
  'invalid_url',
  'surrounding_blank',
];

function messageOf(issue: FieldIssue, apiField: string, label: string): string {
  // English is the API's own language: its message is the most precise one ("… must be at most 120 characters").
  if (locale() === 'en') return issue.message.startsWith(apiField) ? label + issue.message.slice(apiField.length) : issue.message;
  // Any other code still reads in the page's language, naming the stable code a support request can quote.
  return TRANSLATED_CODES.includes(issue.code)
    ? t(`formError.${issue.code}`, { label })
    : t('formError.other', { label, code: issue.code });
}

/**
 * Turns the API's validation problem (`problems.of(err)`) into per-field form errors, naming fields by their form labels
 * ("nif is not a valid Spanish NIF…" -> "NIF is not a valid Spanish NIF…"); `formFields` renames API fields to the
 * form's own input names where they differ. Undefined when the error carries no
 * field problems, so the caller decides what else to say or rethrows.
 */
export function formErrorsFrom(
  err: Problem | undefined,
  labels: Record<string, string>,
  formFields: Record<string, string> = {},
): FormErrors | undefined {
  if (!err?.options.errors?.length) return undefined;
  const errors: FormErrors = {};
  for (const issue of err.options.errors) {
    const apiField = issue.field.split('.')[0];
    const field = formFields[apiField] ?? apiField;
    if (errors[field]) continue;
    const message = messageOf(issue, apiField, labels[apiField] ?? apiField);
    errors[field] = /[.!?]$/.test(message) ? message : `${message}.`;
  }
  return errors;
}
