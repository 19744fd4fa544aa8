import { ApiError } from '../../errors/api-error';
import type { FormErrors } from '../html/form-fields';

/**
 * Turns the API's validation error into per-field form errors, naming fields by their form labels
 * ("nif is not a valid Spanish NIF…" -> "NIF is not a valid Spanish NIF…"); `formFields` renames API fields to the
 * form's own input names where they differ. Undefined when the error carries no
 * field problems, so the caller decides what else to say or rethrows.
 */
export function formErrorsFrom(err: unknown, labels: Record<string, string>, formFields: Record<string, string> = {}): FormErrors | undefined {
  if (!(err instanceof ApiError) || !err.options.errors?.length) return undefined;
  const errors: FormErrors = {};
  for (const issue of err.options.errors) {
    const apiField = issue.field.split('.')[0];
    const field = formFields[apiField] ?? apiField;
    if (errors[field]) continue;
    const label = labels[apiField] ?? apiField;
    const message = issue.message.startsWith(apiField) ? label + issue.message.slice(apiField.length) : issue.message;
    errors[field] = /[.!?]$/.test(message) ? message : `${message}.`;
  }
  return errors;
}
