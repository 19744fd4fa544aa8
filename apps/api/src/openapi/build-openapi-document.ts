import type Joi from 'joi';
import { errorCatalogue, type ErrorCode } from '../errors/error-catalogue';
import { IDEMPOTENCY_KEY } from '../idempotency/idempotency-key';
import { problem } from '../errors/problem-schema';
import type { RouteDoc } from './route-doc';

type JsonSchema = Record<string, unknown>;

// Every route can answer these: the URL guard, the body parser (any method may carry a body), the
// control-character guard, the method check and the dependency/fault fallbacks.
const EVERY_ROUTE: ErrorCode[] = [
  'malformed_url',
  'malformed_json',
  'malformed_body',
  'payload_too_large',
  'nesting_too_deep',
  'too_many_keys',
  'too_many_items',
  'unsupported_media_type',
  'unsupported_content_encoding',
  'invalid_characters',
  'method_not_allowed',
  'internal_error',
  'service_unavailable',
];

// The idempotency middleware runs on every authenticated POST and PUT (see idempotency.ts).
const IDEMPOTENCY_PROBLEMS: ErrorCode[] = ['idempotency_key_invalid', 'idempotency_key_reused', 'idempotency_in_progress'];
const isIdempotent = (route: RouteDoc) => !route.public && (route.method === 'post' || route.method === 'put');
const IDEMPOTENCY_HEADER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'Makes a retry safe: the same key and request within 24 h gets the first answer again (with `Idempotent-Replayed: true`).',
  schema: { type: 'string', pattern: IDEMPOTENCY_KEY.source },
};

type ToJsonSchema = (schema: Joi.Schema) => JsonSchema;

/** /invoices/:id -> /invoices/{id} */
export function openApiPath(expressPath: string): string {
  return expressPath.replace(/:(\w+)/g, '{$1}');
}

function parameters(route: RouteDoc, toJsonSchema: ToJsonSchema) {
  const pathParams = [...route.path.matchAll(/:(\w+)/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  if (isIdempotent(route)) pathParams.push(IDEMPOTENCY_HEADER as (typeof pathParams)[number]);
  for (const header of route.requestHeaders ?? []) {
    pathParams.push({ ...header, in: 'header', required: false } as unknown as (typeof pathParams)[number]);
  }
  if (!route.query) return pathParams;
  const query = toJsonSchema(route.query) as { properties?: Record<string, JsonSchema & { description?: string }>; required?: string[] };
  const queryParams = Object.entries(query.properties ?? {}).map(([name, schema]) => {
    const { description, ...rest } = schema;
    return { name, in: 'query', required: query.required?.includes(name) ?? false, ...(description ? { description } : {}), schema: rest };
  });
  return [...pathParams, ...queryParams];
}

function problemResponses(route: RouteDoc) {
  const codes = [
    ...new Set<ErrorCode>([
      ...route.problems,
      ...(route.public ? [] : (['unauthorized'] as ErrorCode[])),
      ...(isIdempotent(route) ? IDEMPOTENCY_PROBLEMS : []),
      ...EVERY_ROUTE,
    ]),
  ];
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(errorCatalogue[code].status, [...(byStatus.get(errorCatalogue[code].status) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, statusCodes]) => [
      String(status),
      {
        description: statusCodes.map((c) => `\`${c}\`: ${errorCatalogue[c].title}`).join('; '),
        content: {
          'application/problem+json': {
            schema: { allOf: [{ $ref: '#/components/schemas/Problem' }, { type: 'object', properties: { code: { enum: statusCodes } } }] },
          },
        },
      },
    ]),
  );
}

function successResponses(route: RouteDoc, toJsonSchema: ToJsonSchema) {
  const replayed = isIdempotent(route)
    ? { 'Idempotent-Replayed': '`true` when this is the stored answer of an earlier request with the same Idempotency-Key.' }
    : {};
  return Object.fromEntries(
    Object.entries(route.responses).map(([status, doc]) => [
      status,
      {
        description: doc.description,
        ...(doc.headers || isIdempotent(route)
          ? {
              headers: Object.fromEntries(
                Object.entries({ ...doc.headers, ...replayed }).map(([name, description]) => [
                  name,
                  { description, schema: { type: 'string' } },
                ]),
              ),
            }
          : {}),
        ...(doc.json ? { content: { 'application/json': { schema: toJsonSchema(doc.json) } } } : doc.media ? { content: doc.media } : {}),
      },
    ]),
  );
}

/**
 * The OpenAPI 3.1 document of /api/v1, built from the routes' own declarations. The joi-to-JSON-Schema converter
 * (with lodash, about a megabyte) loads here, not when the API starts.
 */
export async function buildOpenApiDocument(routes: RouteDoc[], info: { version: string }) {
  // A CommonJS module whose export is the function itself: at run time it is the namespace's default.
  const { default: parse } = (await import('joi-to-json')) as unknown as { default: typeof import('joi-to-json').parse };
  const toJsonSchema: ToJsonSchema = (schema) => parse(schema, 'open-api-3.1') as JsonSchema;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    paths[path] ??= {};
    paths[path][route.method] = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: [route.tag],
      ...(route.public ? { security: [] } : {}),
      parameters: parameters(route, toJsonSchema),
      ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: toJsonSchema(route.body) } } } } : {}),
      responses: { ...successResponses(route, toJsonSchema), ...problemResponses(route) },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'VERI*FACTU registration API',
      version: info.version,
      description:
        'Registers invoices for Spain’s VERI*FACTU scheme and tracks them with the tax authority (AEAT). Behaviours a schema cannot say: docs/api.md.',
    },
    servers: [{ url: '/api/v1' }],
    security: [{ apiKey: [] }],
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'The account’s API key (vf_…), from POST /auth/register or /auth/regenerate-key.',
        },
      },
      schemas: { Problem: toJsonSchema(problem) },
    },
  };
}

export type OpenApiDocument = Awaited<ReturnType<typeof buildOpenApiDocument>>;
