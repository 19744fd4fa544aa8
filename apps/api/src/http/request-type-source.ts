import type Joi from 'joi';

/** What `schema.describe()` gives for the parts of joi a request schema uses. */
interface Description {
  type: string;
  flags?: { presence?: string; only?: boolean; description?: string };
  rules?: { name: string; args?: { limit?: unknown } }[];
  allow?: unknown[];
  keys?: Record<string, Description>;
  items?: Description[];
  matches?: { schema?: Description }[];
  metas?: { authority?: AuthorityCodes; form?: string }[];
}

/** The authority's numbers a field carries as its meta (invoice-request-schema.ts). */
interface AuthorityCodes {
  missing?: number;
  invalid?: number;
  words?: string;
}

/**
 * Where an object sits in a schema, to name its type: keys joined with `.`, `[]` for an array's items, `|n` for the
 * n-th alternative (`breakdown[]`, `recipient|0`). The same object reached again elsewhere keeps its first name.
 */
export type ObjectNames = Record<string, string>;

interface Printed {
  name: string;
  body: string[];
  fields: string[];
  maxCharacters: [string, number][];
  required: [string, number | null][];
  codes: [string, { values: unknown[]; words: string }][];
  invalid: [string, number][];
  forms: [string, string][];
  lists: [string, ListSizes][];
}

/** A list's fewest and most entries, each with the authority's number for a list outside it (null where it has none). */
interface ListSizes {
  min: number;
  max: number | null;
  tooFew: number | null;
  tooMany: number | null;
}

/** A rule's limit (`min`, `max`) as joi describes it. */
function limitOf(d: Description, rule: string): number | undefined {
  const limit = d.rules?.find((r) => r.name === rule)?.args?.limit;
  return typeof limit === 'number' ? limit : undefined;
}

/**
 * How a field's value is read, where it is one value (an array, an object or a choice of objects has its own reader):
 * the form its meta names (`amount`, `rate`, `date`, `invoice_number`), else a code of a list, a flag, a UUID or a text.
 */
function formOf(d: Description): string | undefined {
  const named = d.metas?.find((meta) => meta.form)?.form;
  if (named) return named;
  if (d.flags?.only) return 'code';
  if (d.type === 'boolean') return 'flag';
  if (d.type === 'string') return d.rules?.some((rule) => rule.name === 'guid') ? 'uuid' : 'text';
  return undefined;
}

/** A code list's values as a refusal names them: `a, b or c`. */
function inWords(values: unknown[]): string {
  const all = values.map(String);
  return all.length > 1 ? `${all.slice(0, -1).join(', ')} or ${all[all.length - 1]}` : all.join('');
}

class Printer {
  readonly objects: Printed[] = [];
  private readonly named = new Map<string, string>();

  constructor(private readonly names: ObjectNames) {}

  typeOf(d: Description, path: string): string {
    const nullable = d.allow?.includes(null) ? ' | null' : '';
    if (d.flags?.only) return (d.allow ?? []).map((v) => (v === null ? 'null' : JSON.stringify(v))).join(' | ');
    if (d.type === 'string' || d.type === 'number' || d.type === 'boolean') return d.type + nullable;
    if (d.type === 'array') {
      const item = this.typeOf(d.items?.[0] ?? { type: 'any' }, `${path}[]`);
      return `${item.includes(' ') ? `(${item})` : item}[]${nullable}`;
    }
    if (d.type === 'object') return this.object(d, path) + nullable;
    if (d.type === 'alternatives') {
      const each = (d.matches ?? []).map((m, i) => this.typeOf(m.schema ?? { type: 'any' }, `${path}|${i}`));
      return [...new Set(each)].join(' | ') + nullable;
    }
    return 'unknown';
  }

  private object(d: Description, path: string): string {
    const identity = JSON.stringify(d);
    const known = this.named.get(identity);
    if (known) return known;
    const name = this.names[path];
    if (!name) throw new Error(`name the object at ${path || 'the top'} of the schema`);
    this.named.set(identity, name);
    const printed: Printed = { name, body: [], fields: [], maxCharacters: [], required: [], codes: [], invalid: [], forms: [], lists: [] };
    // Listed before the objects it holds: the request first, then its parts as they come.
    this.objects.push(printed);
    for (const [key, child] of Object.entries(d.keys ?? {})) {
      const type = this.typeOf(child, path ? `${path}.${key}` : key);
      if (child.flags?.description) printed.body.push(`  /** ${child.flags.description} */`);
      printed.body.push(`  ${key}${child.flags?.presence === 'required' ? '' : '?'}: ${type};`);
      printed.fields.push(key);
      const max = child.type === 'string' ? limitOf(child, 'max') : undefined;
      if (max !== undefined) printed.maxCharacters.push([key, max]);
      this.authorityRules(printed, key, child);
    }
    return name;
  }

  /** What the authority's rules take from a field beyond its type: presence, code list, and the authority's numbers. */
  private authorityRules(printed: Printed, key: string, child: Description): void {
    const codes = Object.assign({}, ...(child.metas ?? []).map((meta) => meta.authority)) as AuthorityCodes;
    if (child.flags?.presence === 'required') printed.required.push([key, codes.missing ?? null]);
    if (child.flags?.only) {
      const values = (child.allow ?? []).filter((value) => value !== null);
      printed.codes.push([key, { values, words: codes.words ?? inWords(values) }]);
    }
    if (child.type === 'array') {
      // A list's numbers are for its sizes: `missing` for one below its minimum, `invalid` for one over its maximum.
      const min = limitOf(child, 'min') ?? 0;
      const tooFew = min > 0 ? (codes.missing ?? null) : null;
      printed.lists.push([key, { min, max: limitOf(child, 'max') ?? null, tooFew, tooMany: codes.invalid ?? null }]);
      return;
    }
    if (codes.invalid !== undefined) printed.invalid.push([key, codes.invalid]);
    const form = formOf(child);
    if (form) printed.forms.push([key, form]);
  }
}

/** `export const NAME = { Object: { field: value, … }, … } as const;`, for each object in the request. */
function table<T>(doc: string, name: string, objects: Printed[], entries: (o: Printed) => [string, T][]): string[] {
  const lines = [`/** ${doc} */`, `export const ${name} = {`];
  for (const o of objects)
    lines.push(
      `  ${o.name}: { ${entries(o)
        .map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
        .join(', ')} },`,
    );
  return [...lines, '} as const;', ''];
}

/**
 * TypeScript source for the request a joi schema describes: an interface per object, each object's field names
 * (anything else is an unknown field), its texts' most characters, its required fields, its code lists, its lists'
 * sizes and the authority's numbers its fields carry (their meta `authority`). Generated code, so that the schema stays the one description of the request's
 * shape and whatever reads a request is held to it by the compiler.
 */
export function requestTypeSource(schema: Joi.Schema, names: ObjectNames, header: string): string {
  const printer = new Printer(names);
  printer.typeOf(schema.describe() as Description, '');
  const objects = printer.objects;
  const lines = [header, ''];
  for (const o of objects) lines.push(`export interface ${o.name} {`, ...o.body, '}', '');
  lines.push('/** Each object’s fields, as the schema names them. */', 'export const REQUEST_FIELDS = {');
  for (const o of objects) lines.push(`  ${o.name}: [${o.fields.map((f) => `'${f}'`).join(', ')}],`);
  lines.push('} as const;', '');
  lines.push(...table('The most characters each text of an object may have.', 'REQUEST_MAX_CHARACTERS', objects, (o) => o.maxCharacters));
  lines.push(
    ...table(
      'Each object’s required fields, with the authority’s number for leaving one out (null where it has none).',
      'REQUEST_REQUIRED',
      objects,
      (o) => o.required,
    ),
  );
  lines.push(
    ...table('Each object’s code lists: the values a code may take, as a refusal names them.', 'REQUEST_CODES', objects, (o) => o.codes),
  );
  lines.push(...table('How each field that is one value is read: its form.', 'REQUEST_FORMS', objects, (o) => o.forms));
  lines.push(
    ...table(
      'The authority’s number for a value outside a field’s form (its list, length or calendar; an amount’s digits), where it has one.',
      'REQUEST_INVALID_CODES',
      objects,
      (o) => o.invalid,
    ),
  );
  lines.push(
    ...table(
      'Each list’s fewest and most entries (each entry an object), with the authority’s number for a list below or above them (null where it has none).',
      'REQUEST_LISTS',
      objects,
      (o) => o.lists,
    ),
  );
  return lines.join('\n');
}
