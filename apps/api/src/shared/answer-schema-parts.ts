import Joi from 'joi';

// The pieces every feature's answer schemas are made of, in joi like the requests so one converter turns both into
// the OpenAPI document. The contract test holds real answers against them: a renderer that drifts fails it.

export const text = Joi.string().allow('');
export const nullableText = text.allow(null);
export const id = Joi.string().guid();
export const timestamp = Joi.string().isoDate();
export const isoDay = Joi.string().pattern(/^\d{4}-\d{2}-\d{2}$/);
export const nullableTimestamp = timestamp.allow(null);
export const amount = Joi.string()
  .pattern(/^-?\d+\.\d{2}$/)
  .description('Decimal string with two decimals, e.g. "121.00" or "-12.10".');
export const nullableAmount = amount.allow(null);
export const environment = Joi.string().valid('sandbox', 'production');
export const warning = Joi.object({ code: text.required(), message: text.required() });

/** `{ data }` around a resource, with an optional human `message`. */
export function envelope(data: Joi.Schema): Joi.ObjectSchema {
  return Joi.object({ message: text, data: data.required() });
}

/** `{ data: [...], next_cursor }` of every paginated list. */
export function pageOf(item: Joi.Schema, extra: Record<string, Joi.Schema> = {}): Joi.ObjectSchema {
  return Joi.object({
    data: Joi.array().items(item).required(),
    next_cursor: Joi.string().allow(null).required().description('Pass as `cursor` for the next page; null on the last page.'),
    ...extra,
  });
}
