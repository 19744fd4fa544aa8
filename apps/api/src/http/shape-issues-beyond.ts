import type Joi from 'joi';
import type { FieldIssue } from '../errors/api-error';
import { issuesOf } from './parse-with';
import { compileShapePrecheck } from './shape-precheck';

const OPTIONS: Joi.ValidationOptions = { abortEarly: false, errors: { wrap: { label: false } } };

interface Prepared {
  /** The schema with OPTIONS as its own preferences: options passed to validate() are merged with joi's defaults again on every call. */
  joi: Joi.Schema;
  /** Passes bodies joi would pass, without joi's cost (shape-precheck.ts); none for a schema it cannot mirror. */
  precheck?: (body: unknown) => boolean;
}

// Made once per schema, on its first body.
const preparedSchemas = new WeakMap<Joi.Schema, Prepared>();

function prepared(schema: Joi.Schema): Prepared {
  let made = preparedSchemas.get(schema);
  if (!made) preparedSchemas.set(schema, (made = { joi: schema.prefs(OPTIONS), precheck: compileShapePrecheck(schema) }));
  return made;
}

/** `breakdown[0].tax_rate` (the domain rules' paths) and `breakdown.0.tax_rate` (joi's) name the same field. */
const dotted = (field: string) => field.replace(/\[(\d+)\]/g, '.$1');

/** A problem on `outer` already says what is wrong with `inner`: the same field, a part of it, or the whole body. */
const covers = (outer: string, inner: string) => outer === '' || inner === outer || inner.startsWith(`${outer}.`);

/**
 * The documented shape's problems with `body` that the domain rules did not already report, so that one answer
 * carries both: a field the rules judged (with the authority's code) is not reported a second time in joi's words.
 */
export function shapeIssuesBeyond(schema: Joi.Schema, body: unknown, ruleIssues: readonly FieldIssue[]): FieldIssue[] {
  const { joi, precheck } = prepared(schema);
  if (precheck?.(body)) return [];
  const { error } = joi.validate(body);
  if (!error) return [];
  const judged = ruleIssues.map((issue) => dotted(issue.field));
  return issuesOf(error).filter((issue) => {
    const field = dotted(issue.field);
    return !judged.some((rule) => covers(rule, field) || covers(field, rule));
  });
}
