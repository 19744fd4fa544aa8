import type Joi from 'joi';
import { ApiError, type FieldIssue } from '../errors/api-error';

// Joi's error types, folded into the few stable codes clients can switch on.
function codeOf(type: string): string {
  // Our own rules name their code directly: "vf.invalid_nif" -> "invalid_nif".
  if (type.startsWith('vf.')) return type.slice(3);
  if (type === 'any.required') return 'required';
  if (type === 'any.unknown') return 'not_allowed';
  if (type === 'object.unknown') return 'unknown_field';
  if (type.startsWith('string.pattern')) return 'invalid_format';
  if (type.endsWith('.base')) return 'invalid_type';
  if (type === 'string.max' || type === 'array.max') return 'too_long';
  if (type === 'string.min' || type === 'string.empty' || type === 'array.min') return 'too_short';
  if (type === 'any.only') return 'invalid_value';
  if (type.startsWith('number.')) return 'out_of_range';
  if (type === 'object.missing' || type === 'object.xor' || type === 'object.nand' || type === 'object.with' || type === 'object.without')
    return 'invalid_combination';
  return 'invalid_format';
}

export function issuesOf(error: Joi.ValidationError): FieldIssue[] {
  return error.details.map((d) => {
    const issue: FieldIssue = {
      field: d.path.length > 0 ? d.path.join('.') : String(d.context?.key ?? ''),
      code: codeOf(d.type),
      message: d.message.replace(/"/g, ''),
    };
    // Our own rules that mirror one of the authority's name its code (text-schema.ts).
    const authorityCode: unknown = d.context?.authority_code;
    return typeof authorityCode === 'number' ? { ...issue, authority_code: authorityCode } : issue;
  });
}

/**
 * Validates input against a request schema; a 422 with every field problem otherwise. The answer has the schema's
 * type: declare it with `Joi.object<T, true>(...)`, whose keys TypeScript holds to T's, each with a schema of its kind.
 */
export function parseWith<T>(schema: Joi.Schema<T>, input: unknown): T {
  const result = schema.validate(input ?? {}, { abortEarly: false, stripUnknown: false, errors: { wrap: { label: false } } });
  if (result.error) throw ApiError.validation(issuesOf(result.error));
  return result.value;
}
