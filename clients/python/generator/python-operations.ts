import { pascalCase, pythonLiteral, pythonName, snakeCase, type JsonSchema, type PythonTypes } from './python-types.ts';

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

interface Response {
  content?: Record<string, { schema?: JsonSchema }>;
}

export interface Operation {
  operationId: string;
  summary?: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses: Record<string, Response>;
}

/** How the hand-written layer reads a success: JSON (or only its `data`), text, bytes, or nothing (204). */
interface Answer {
  type: string;
  expect: 'json' | 'text' | 'bytes' | 'none';
  unwrap: boolean;
  accept: string[];
}

/** Answers with a `data` envelope and at most a `message` are unwrapped: the method returns what `data` holds. */
function isDataEnvelope(schema: JsonSchema | undefined): schema is JsonSchema & { properties: { data: unknown } } {
  const properties = Object.keys((schema?.properties as object | undefined) ?? {});
  return (
    properties.includes('data') &&
    properties.every((p) => p === 'data' || p === 'message') &&
    (schema?.required as string[])?.includes('data')
  );
}

function answerOf(operation: Operation, base: string, types: PythonTypes): Answer {
  const successes = Object.entries(operation.responses)
    .filter(([status]) => status.startsWith('2'))
    .map(([, response]) => response);
  const json = successes.flatMap((r) => (r.content?.['application/json']?.schema ? [r.content['application/json'].schema] : []));
  if (json.length) {
    const unwrap = json.every(isDataEnvelope);
    const type = unwrap
      ? types.named((json[0].properties as Record<string, unknown>).data, `${base}Result`)
      : [...new Set(json.map((schema) => types.named(schema, `${base}Response`)))].join(' | ');
    return { type, expect: 'json', unwrap, accept: [] };
  }
  const media = successes.flatMap((r) => Object.keys(r.content ?? {}));
  if (!media.length) return { type: 'None', expect: 'none', unwrap: false, accept: [] };
  const text = media.every((m) => m.startsWith('text/') || m.endsWith('/xml'));
  return { type: text ? 'str' : 'bytes', expect: text ? 'text' : 'bytes', unwrap: false, accept: media };
}

/** One line of a docstring, its quotes and backslashes made safe. */
const docLine = (text: string) => text.replace(/\\/g, '\\\\').replace(/"""/g, '\\"\\"\\"');

/** A dict literal of wire names to Python names, one entry a line when they do not fit on one. */
function wireDict(pairs: [string, string][]): string {
  const entries = pairs.map(([wire, py]) => `${JSON.stringify(wire)}: ${py}`);
  const flat = `{${entries.join(', ')}}`;
  return flat.length <= 80 ? flat : `{\n${entries.map((e) => `                ${e},`).join('\n')}\n            }`;
}

/**
 * One method of the generated `Operations` class: named after the operationId in snake_case; path parameters and the
 * body positional, query parameters and headers keyword-only (None: left out, the service's default applies).
 */
export function operationMethod(method: string, path: string, operation: Operation, types: PythonTypes): string {
  const base = pascalCase(operation.operationId);
  const parameters = operation.parameters ?? [];
  const positional: string[] = ['self'];
  const keywords: string[] = [];
  const pathParams: [string, string][] = [];
  const query: [string, string][] = [];
  const headers: [string, string][] = [];
  for (const p of parameters.filter((p) => p.in === 'path')) {
    positional.push(`${pythonName(p.name)}: str`);
    pathParams.push([p.name, pythonName(p.name)]);
  }
  const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
  if (bodySchema) positional.push(`body: ${types.named(bodySchema, `${base}Body`)}`);
  for (const p of parameters.filter((p) => p.in === 'query' || p.in === 'header')) {
    const name = pythonName(p.name);
    keywords.push(`${name}: ${types.typeOf(p.schema, `${base}${pascalCase(p.name)}`).replace(/ \| None$/, '')} | None = None`);
    (p.in === 'query' ? query : headers).push([p.name, name]);
  }
  const answer = answerOf(operation, base, types);
  if (answer.accept.length > 1) {
    keywords.push(`accept: Literal[${answer.accept.map(pythonLiteral).join(', ')}] = ${pythonLiteral(answer.accept[0])}`);
    headers.push(['Accept', 'accept']);
  } else if (answer.accept.length === 1) headers.unshift(['Accept', pythonLiteral(answer.accept[0])]);
  const signature = [...positional, ...(keywords.length ? ['*', ...keywords] : [])];
  const call = [
    `${JSON.stringify(method.toUpperCase())}`,
    JSON.stringify(path),
    ...(pathParams.length ? [`path_params=${wireDict(pathParams)}`] : []),
    ...(query.length ? [`query=${wireDict(query)}`] : []),
    ...(bodySchema ? ['body=body'] : []),
    ...(headers.length ? [`headers=${wireDict(headers)}`] : []),
    `expect=${JSON.stringify(answer.expect)}`,
    ...(answer.unwrap ? ['unwrap="data"'] : []),
  ];
  return [
    `    def ${snakeCase(operation.operationId)}(`,
    ...signature.map((s) => `        ${s},`),
    `    ) -> ${answer.type}:`,
    `        """${docLine((operation.summary ?? operation.operationId).replace(/\.$/, ''))} (${method.toUpperCase()} ${path})."""`,
    `        return self._call(`,
    ...call.map((c) => `            ${c},`),
    `        )`,
  ].join('\n');
}
