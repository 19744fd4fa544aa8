/** A JSON Schema (2020-12, as OpenAPI 3.1 carries it), read loosely: the generator looks at the keywords it maps. */
export type JsonSchema = { [keyword: string]: unknown };

const SIMPLE: Record<string, string> = { string: 'str', integer: 'int', number: 'float', boolean: 'bool', null: 'None' };

const PYTHON_KEYWORDS = new Set(
  (
    'False None True and as assert async await break class continue def del elif else except finally for from global if ' +
    'import in is lambda nonlocal not or pass raise return try while with yield'
  ).split(' '),
);

/** `invoice_date` stays; a Python keyword gets a trailing underscore (`from_`), per PEP 8. */
export function pythonName(name: string): string {
  const snake = snakeCase(name);
  return PYTHON_KEYWORDS.has(snake) ? `${snake}_` : snake;
}

/** registerInvoiceBatch -> register_invoice_batch, getOpenApiDocument -> get_open_api_document. */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toLowerCase();
}

/** register_invoice, recipient -> RegisterInvoice, Recipient */
export function pascalCase(name: string): string {
  return snakeCase(name)
    .split('_')
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');
}

/** A Python literal of a JSON value (the members of an enum, a const). */
export function pythonLiteral(value: unknown): string {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  return JSON.stringify(value);
}

const isIdentifier = (name: string) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !PYTHON_KEYWORDS.has(name);

function union(members: string[]): string {
  const unique = [...new Set(members.flatMap((m) => m.split(' | ')))];
  if (unique.length === 0 || unique.includes('Any')) return 'Any';
  // Literals and types first, None last: `Literal["a", "b"] | None` reads as an optional enum.
  return [...unique.filter((m) => m !== 'None'), ...(unique.includes('None') ? ['None'] : [])].join(' | ');
}

/** A schema's keywords that change its type: descriptions and constraints aside, two schemas with equal keys are one. */
function shapeKey(schema: unknown): string {
  return JSON.stringify(schema, (key, value: unknown) =>
    [
      'description',
      'title',
      'examples',
      'example',
      'default',
      'minLength',
      'maxLength',
      'minItems',
      'maxItems',
      'pattern',
      'format',
    ].includes(key)
      ? undefined
      : value,
  );
}

/**
 * The TypedDicts of a document's schemas, declared in the order Python needs (a nested type before the one that
 * uses it). An object schema is named after where it first appears (`RegisterInvoiceBody`, its `recipient` property
 * `RegisterInvoiceBodyRecipient`, an array's items `...Item`, a union's members `...1`, `...2`); an object of the
 * same shape met again reuses that name.
 */
export class PythonTypes {
  private readonly declarations: string[] = [];
  private readonly byShape = new Map<string, string>();
  private readonly names = new Set<string>();

  /** The Python type of `schema`, declaring a TypedDict named `name` (or derived from it) for each object in it. */
  typeOf(schema: unknown, name: string): string {
    if (typeof schema !== 'object' || schema === null) return schema === false ? 'None' : 'Any';
    const s = schema as JsonSchema;
    if (typeof s.$ref === 'string') return s.$ref.split('/').pop()!;
    if ('const' in s) return s.const === null ? 'None' : `Literal[${pythonLiteral(s.const)}]`;
    if (Array.isArray(s.enum)) return this.enumType(s.enum);
    if (s.properties && typeof s.properties === 'object') return this.typedDict(s, name);
    const variants = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
    if (Array.isArray(variants)) return this.unionOf(variants, name);
    if (Array.isArray(s.allOf) && s.allOf.length === 1) return this.typeOf(s.allOf[0], name);
    if (Array.isArray(s.type)) return union(s.type.map((type: string) => this.typeOf({ ...s, type }, name)));
    if (s.type === 'array') return `list[${s.items === undefined ? 'Any' : this.typeOf(s.items, `${name}Item`)}]`;
    if (s.type === 'object') {
      const values = s.additionalProperties;
      return `dict[str, ${typeof values === 'object' && values !== null ? this.typeOf(values, `${name}Value`) : 'Any'}]`;
    }
    return typeof s.type === 'string' ? (SIMPLE[s.type] ?? 'Any') : 'Any';
  }

  /**
   * The type of an operation's body or answer, always under `name`: an alias (`RegisterInvoiceBody =
   * ValidateInvoiceBody`) when its shape was met first elsewhere, so that every operation's names exist.
   */
  named(schema: unknown, name: string): string {
    const type = this.typeOf(schema, name);
    if (type === name || this.names.has(name)) return type;
    this.names.add(name);
    this.declarations.push(`${name} = ${type}`);
    return name;
  }

  /** The names declared so far, sorted. */
  declared(): string[] {
    return [...this.names].sort();
  }

  /** The declarations made so far, in order. */
  source(): string {
    return this.declarations.join('\n\n\n');
  }

  private enumType(values: unknown[]): string {
    const literals = values.filter((v) => v !== null).map(pythonLiteral);
    return union([...(literals.length ? [`Literal[${literals.join(', ')}]`] : []), ...(values.includes(null) ? ['None'] : [])]);
  }

  private unionOf(variants: unknown[], name: string): string {
    // `{ not: {} }` matches nothing: joi's way of saying a value may be absent.
    const possible = variants.filter((v) => !(typeof v === 'object' && v !== null && shapeKey(v) === '{"not":{}}'));
    const objects = possible.filter((v) => typeof v === 'object' && v !== null && (v as JsonSchema).properties).length;
    let index = 0;
    return union(possible.map((v) => this.typeOf(v, objects > 1 && (v as JsonSchema).properties ? `${name}${++index}` : name)));
  }

  private typedDict(schema: JsonSchema, wanted: string): string {
    const key = shapeKey({ properties: schema.properties, required: schema.required });
    const known = this.byShape.get(key);
    if (known) return known;
    let name = wanted;
    for (let n = 2; this.names.has(name); n++) name = `${wanted}${n}`;
    this.names.add(name);
    this.byShape.set(key, name);
    const required = new Set((schema.required as string[] | undefined) ?? []);
    const fields = Object.entries(schema.properties as Record<string, unknown>).map(([property, propertySchema]) => {
      const type = this.typeOf(propertySchema, `${name}${pascalCase(property)}`);
      return { property, type: required.has(property) ? type : `NotRequired[${type}]` };
    });
    this.declarations.push(declaration(name, fields));
    return name;
  }
}

/** Class syntax where every key is an identifier; the functional form (evaluated at once, hence the order) otherwise. */
function declaration(name: string, fields: { property: string; type: string }[]): string {
  if (fields.every((f) => isIdentifier(f.property))) {
    const body = fields.length ? fields.map((f) => `    ${f.property}: ${f.type}`).join('\n') : '    pass';
    return `class ${name}(TypedDict):\n${body}`;
  }
  const entries = fields.map((f) => `        ${JSON.stringify(f.property)}: ${f.type},`).join('\n');
  return `${name} = TypedDict(\n    ${JSON.stringify(name)},\n    {\n${entries}\n    },\n)`;
}
