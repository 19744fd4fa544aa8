import Ajv, { type ValidateFunction } from 'ajv';
import type Joi from 'joi';

/** What `schema.describe()` gives for the parts of joi a precheck mirrors. */
interface Description {
  type: string;
  flags?: Record<string, unknown>;
  rules?: { name: string; args?: Record<string, unknown> }[];
  allow?: unknown[];
  keys?: Record<string, Description>;
  items?: Description[];
  matches?: Record<string, unknown>[];
}

type JsonSchema = Record<string, unknown>;

/** Parts of a description that change nothing joi accepts. */
const INERT = new Set(['type', 'flags', 'rules', 'allow', 'keys', 'items', 'matches', 'metas', 'notes', 'examples']);
const INERT_FLAGS = new Set(['description', 'presence', 'only', 'label']);
/** Any UUID joi's `guid()` without options accepts (which also takes braces, colons or no separators). */
const UUID = '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$';
/** A regular expression as joi describes it, `/source/`, without flags. */
const DESCRIBED_REGEX = /^\/(.*)\/$/s;

function stringSchema(rules: NonNullable<Description['rules']>): JsonSchema | undefined {
  // joi refuses the empty string unless allowed (and an allowed value makes the precheck give up, below).
  const schema: JsonSchema = { type: 'string', minLength: 1 };
  const patterns: string[] = [];
  for (const { name, args = {} } of rules) {
    const limit = args.limit;
    if (name === 'guid' && Object.keys(args).length === 0) patterns.push(UUID);
    else if (name === 'pattern' && Object.keys(args).length === 1 && typeof args.regex === 'string') {
      const source = DESCRIBED_REGEX.exec(args.regex)?.[1];
      if (source === undefined) return undefined;
      patterns.push(source);
    } else if (typeof limit !== 'number') return undefined;
    // JSON Schema counts characters (code points), joi's `max` UTF-16 units, of which a character has one or two: a
    // minimum is as strict or stricter in characters, a maximum is checked in units by a pattern compiled without `u`.
    // (A `text()` limit counts characters, so checking it in units is stricter still.)
    else if (name === 'min') schema.minLength = Math.max(1, limit);
    else if (name === 'max') patterns.push(`^[\\s\\S]{0,${limit}}$`);
    else if (name === 'length') patterns.push(`^[\\s\\S]{${limit}}$`);
    else return undefined;
  }
  if (patterns.length === 1) schema.pattern = patterns[0];
  if (patterns.length > 1) schema.allOf = patterns.map((pattern) => ({ pattern }));
  return schema;
}

function arraySchema(d: Description): JsonSchema | undefined {
  if (d.items?.length !== 1) return undefined;
  const items = toJsonSchema(d.items[0]);
  if (!items) return undefined;
  const schema: JsonSchema = { type: 'array', items };
  for (const { name, args = {} } of d.rules ?? []) {
    if (typeof args.limit !== 'number') return undefined;
    if (name === 'min') schema.minItems = args.limit;
    else if (name === 'max') schema.maxItems = args.limit;
    else if (name === 'length') schema.minItems = schema.maxItems = args.limit;
    else return undefined;
  }
  return schema;
}

function objectSchema(d: Description): JsonSchema | undefined {
  if (!d.keys || d.rules?.length) return undefined;
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [key, child] of Object.entries(d.keys)) {
    const schema = toJsonSchema(child);
    if (!schema) return undefined;
    properties[key] = schema;
    if (child.flags?.presence === 'required') required.push(key);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

function alternativesSchema(d: Description): JsonSchema | undefined {
  if (!d.matches || d.rules?.length) return undefined;
  const anyOf: JsonSchema[] = [];
  for (const match of d.matches) {
    // Conditional alternatives (is/then/otherwise, switch) are joi's own logic.
    if (Object.keys(match).length !== 1 || !match.schema) return undefined;
    const schema = toJsonSchema(match.schema as Description);
    if (!schema) return undefined;
    anyOf.push(schema);
  }
  return { anyOf };
}

/**
 * A JSON Schema that accepts only values the described joi schema accepts, or undefined where the description uses
 * anything whose meaning it does not carry over exactly (a joi rule, flag or preference not listed here).
 */
function toJsonSchema(d: Description): JsonSchema | undefined {
  if (Object.keys(d).some((key) => !INERT.has(key))) return undefined;
  const flags = d.flags ?? {};
  if (Object.keys(flags).some((flag) => !INERT_FLAGS.has(flag))) return undefined;
  if (flags.presence !== undefined && flags.presence !== 'required' && flags.presence !== 'optional') return undefined;
  const allow = d.allow ?? [];
  // `valid(...)`: those values only, compared as they are.
  if (flags.only) return !d.rules?.length && allow.every((v) => v === null || typeof v === 'string') ? { enum: allow } : undefined;
  const nullable = allow.includes(null);
  if (allow.length > (nullable ? 1 : 0)) return undefined;
  let schema: JsonSchema | undefined;
  if (d.type === 'string') schema = stringSchema(d.rules ?? []);
  // joi refuses numbers beyond the safe integers (and infinities), whatever their form.
  else if (d.type === 'number' && !d.rules?.length)
    schema = { type: 'number', minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER };
  else if (d.type === 'boolean' && !d.rules?.length) schema = { type: 'boolean' };
  else if (d.type === 'array') schema = arraySchema(d);
  else if (d.type === 'object') schema = objectSchema(d);
  else if (d.type === 'alternatives') schema = alternativesSchema(d);
  if (!schema) return undefined;
  return nullable ? { anyOf: [schema, { const: null }] } : schema;
}

// Patterns compiled as joi compiles them, without the `u` flag. Compiled on a schema's first body: without ajv's code
// optimisation that takes about a third of the time (tens of milliseconds rather than a hundred or more, once per
// process), for well under a microsecond more per body.
const ajv = new Ajv({ unicodeRegExp: false, allErrors: false, strict: true, code: { optimize: false } });

/**
 * A compiled check that answers true only for values the joi schema accepts: a body it passes needs no joi run (joi
 * builds a state, helpers and closures for each value it checks, about 30 µs and a fifth of a registration's
 * allocations; measured, docs/scaling.md). False says nothing: joi judges, and words the problems. Undefined for a
 * schema the precheck cannot mirror exactly.
 */
export function compileShapePrecheck(schema: Joi.Schema): ValidateFunction | undefined {
  const json = toJsonSchema(schema.describe() as Description);
  return json ? ajv.compile(json) : undefined;
}
