import { ApiError } from '../../errors/api-error';
import type { FormErrors } from '../html/form-fields';

/**
 * Turns the API's validation error into per-field form errors, naming fields by their form labels
 * ("nif is not a valid Spanish NIF…" -> "NIF is not a valid Spanish NIF…"). Undefined when the error carries no
 * field problems, so the caller decides what else to say or rethrows.
 */
export function formErrorsFrom(err: unknown, labels: Record<string, string>): FormErrors | undefined {
  if (!(err instanceof ApiError) || !err.options.errors?.length) return undefined;
  const errors: FormErrors = {};
  for (const issue of err.options.errors) {
    const field = issue.field.split('.')[0];
    if (errors[field]) continue;
    const label = labels[field] ?? field;
    const message = issue.message.startsWith(issue.field) ? label + issue.message.slice(issue.field.length) : issue.message;
    errors[field] = /[.!?)]$/.test(message) ? message : `${message}.`;
  }
  return errors;
}
