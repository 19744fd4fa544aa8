import type Joi from 'joi';
import type { FieldIssue } from '../errors/api-error';
import { issuesOf } from './parse-with';

const OPTIONS: Joi.ValidationOptions = { abortEarly: false, errors: { wrap: { label: false } } };

// Each schema with OPTIONS as its own preferences, made once: options passed to validate() are merged with joi's
// defaults again on every call (three objects per body, on the request path).
const withOptions = new WeakMap<Joi.Schema, Joi.Schema>();

function prepared(schema: Joi.Schema): Joi.Schema {
  let made = withOptions.get(schema);
  if (!made) withOptions.set(schema, (made = schema.prefs(OPTIONS)));
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
  const { error } = prepared(schema).validate(body);
  if (!error) return [];
  const judged = ruleIssues.map((issue) => dotted(issue.field));
  return issuesOf(error).filter((issue) => {
    const field = dotted(issue.field);
    return !judged.some((rule) => covers(rule, field) || covers(field, rule));
  });
}
