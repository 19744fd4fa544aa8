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
    const printed: Printed = { name, body: [], fields: [], maxCharacters: [] };
    // Listed before the objects it holds: the request first, then its parts as they come.
    this.objects.push(printed);
    for (const [key, child] of Object.entries(d.keys ?? {})) {
      const type = this.typeOf(child, path ? `${path}.${key}` : key);
      if (child.flags?.description) printed.body.push(`  /** ${child.flags.description} */`);
      printed.body.push(`  ${key}${child.flags?.presence === 'required' ? '' : '?'}: ${type};`);
      printed.fields.push(key);
      const max = child.type === 'string' ? child.rules?.find((rule) => rule.name === 'max')?.args?.limit : undefined;
      if (typeof max === 'number') printed.maxCharacters.push([key, max]);
    }
    return name;
  }
}

/**
 * TypeScript source for the request a joi schema describes: an interface per object, each object's field names
 * (anything else is an unknown field) and its texts' most characters. Generated code, so that the schema stays the one description of the request's
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
  lines.push('} as const;', '', '/** The most characters each text of an object may have. */', 'export const REQUEST_MAX_CHARACTERS = {');
  for (const o of objects) lines.push(`  ${o.name}: { ${o.maxCharacters.map(([key, max]) => `${key}: ${max}`).join(', ')} },`);
  lines.push('} as const;', '');
  return lines.join('\n');
}
