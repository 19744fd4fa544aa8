import { Router, type Request } from 'express';
import type { SystemRow } from '@vf/db';
import { currentAccount } from '../auth/require-api-key';
import { sealedAnswerFor, sendAnswer, type JsonAnswer } from '../idempotency/sealed-answer';
import { ApiError } from '../errors/api-error';
import { isUuid } from '../http/is-uuid';
import { methodNotAllowed } from '../http/method-not-allowed';
import { parseWith } from '../http/parse-with';
import { pageQuerySchema } from '../shared/page-query';
import { system, systemCreateSchema, systemUpdateSchema } from './system-schemas';
import type { SystemService } from './system-service';
import { renderSystem } from './system-view';
import { envelope, pageOf } from '../shared/answer-schema-parts';
import type { RouteDoc } from '../openapi/route-doc';

function systemId(req: Request): string {
  const { id } = req.params;
  if (!isUuid(id)) throw new ApiError('system_not_found', 'No computer system with this id in your account.');
  return id;
}

const createdAnswer = (system: SystemRow): JsonAnswer => ({
  status: 201,
  location: `/api/v1/systems/${system.id}`,
  body: { data: renderSystem(system) },
});

const updatedAnswer = (system: SystemRow): JsonAnswer => ({ status: 200, body: { data: renderSystem(system) } });

export function systemRoutes(systems: SystemService): Router {
  const router = Router();

  router
    .route('/systems')
    .get(async (req, res) => {
      const page = await systems.listPage(currentAccount(res).id, parseWith(pageQuerySchema, req.query));
      res.json({ data: page.items.map(renderSystem), next_cursor: page.nextCursor });
    })
    .post(async (req, res) => {
      const input = parseWith(systemCreateSchema, req.body);
      const system = await systems.create(currentAccount(res).id, input, sealedAnswerFor(res, createdAnswer));
      sendAnswer(res, createdAnswer, system);
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/systems/:id')
    .get(async (req, res) => {
      res.json({ data: renderSystem(await systems.get(currentAccount(res).id, systemId(req))) });
    })
    .put(async (req, res) => {
      const id = systemId(req);
      const input = parseWith(systemUpdateSchema, req.body);
      sendAnswer(res, updatedAnswer, await systems.update(currentAccount(res).id, id, input, sealedAnswerFor(res, updatedAnswer)));
    })
    .delete(async (req, res) => {
      await systems.remove(currentAccount(res).id, systemId(req));
      res.status(204).end();
    })
    .all(methodNotAllowed(['GET', 'PUT', 'DELETE']));

  return router;
}

export const systemRouteDocs: RouteDoc[] = [
  {
    method: 'get',
    operationId: 'listSystems',
    path: '/systems',
    tag: 'Computer systems',
    summary: 'List computer systems',
    query: pageQuerySchema,
    responses: { 200: { description: 'A page of systems, newest first.', json: pageOf(system) } },
    problems: ['validation_failed'],
  },
  {
    method: 'post',
    operationId: 'createSystem',
    path: '/systems',
    tag: 'Computer systems',
    summary: 'Declare a computer system (SistemaInformatico)',
    body: systemCreateSchema,
    responses: { 201: { description: 'Created.', json: envelope(system), headers: { Location: 'The new system’s URL.' } } },
    problems: ['validation_failed'],
  },
  {
    method: 'get',
    operationId: 'getSystem',
    path: '/systems/:id',
    tag: 'Computer systems',
    summary: 'One computer system',
    responses: { 200: { description: 'The system.', json: envelope(system) } },
    problems: ['system_not_found'],
  },
  {
    method: 'put',
    operationId: 'updateSystem',
    path: '/systems/:id',
    tag: 'Computer systems',
    summary: 'Change a computer system (only the fields given)',
    body: systemUpdateSchema,
    responses: { 200: { description: 'Updated.', json: envelope(system) } },
    problems: ['validation_failed', 'system_not_found', 'system_single_taxpayer'],
  },
  {
    method: 'delete',
    operationId: 'deleteSystem',
    path: '/systems/:id',
    tag: 'Computer systems',
    summary: 'Delete an unused computer system',
    responses: { 204: { description: 'Deleted.' } },
    problems: ['system_not_found', 'system_in_use'],
  },
];
