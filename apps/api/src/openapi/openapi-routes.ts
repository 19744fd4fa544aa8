import { Router } from 'express';
import { methodNotAllowed } from '../http/method-not-allowed';
import type { OpenApiDocument } from './build-openapi-document';
import type { RouteDoc } from './route-doc';

/** Where openApiRoutes is mounted, below /api/v1. */
export const OPENAPI_PATH = '/openapi.json';
export const API_DOCUMENT_PATH = `/api/v1${OPENAPI_PATH}`;

/** GET /openapi.json, public: clients and the /docs reference read it. Mounted at OPENAPI_PATH. */
export function openApiRoutes(document: () => Promise<OpenApiDocument>): Router {
  const router = Router();
  router
    .route('/')
    .get(async (_req, res) => {
      res.json(await document());
    })
    .all(methodNotAllowed(['GET']));
  return router;
}

export const openApiRouteDocs: RouteDoc[] = [
  {
    method: 'get',
    operationId: 'getOpenApiDocument',
    path: OPENAPI_PATH,
    tag: 'Operations',
    summary: 'This OpenAPI 3.1 document',
    public: true,
    responses: { 200: { description: 'The document.', media: { 'application/json': { schema: { type: 'object' } } } } },
    problems: [],
  },
];
