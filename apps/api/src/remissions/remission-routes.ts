import { Router, type Request } from 'express';
import { currentAccount } from '../auth/require-api-key';
import { ApiError } from '../errors/api-error';
import { isUuid } from '../http/is-uuid';
import { methodNotAllowed } from '../http/method-not-allowed';
import { parseWith } from '../http/parse-with';
import type { RemissionView } from '@vf/db';
import { sealedAnswerFor, sendAnswer, type JsonAnswer } from '../idempotency/sealed-answer';
import type { RouteDoc } from '../openapi/route-doc';
import { remissionCreateSchema, remissionListResponse, remissionResponse } from './remission-schemas';
import type { RemissionService } from './remission-service';
import { renderRemission } from './remission-view';

function uuidParam(req: Request, name: 'id' | 'remissionId', code: 'taxpayer_not_found' | 'remission_not_found'): string {
  const value = req.params[name];
  if (!isUuid(value))
    throw new ApiError(code, code === 'taxpayer_not_found' ? 'No taxpayer with this id in your account.' : 'No remission with this id.');
  return value;
}

export function remissionRoutes(remissions: RemissionService): Router {
  const router = Router();
  router
    .route('/taxpayers/:id/remissions')
    .post(async (req, res) => {
      const taxpayerId = uuidParam(req, 'id', 'taxpayer_not_found');
      const body = parseWith(remissionCreateSchema, req.body);
      const startedAnswer = (started: RemissionView): JsonAnswer => ({
        status: 202,
        location: `/api/v1/taxpayers/${taxpayerId}/remissions/${started.id}`,
        body: { data: renderRemission(started) },
      });
      const started = await remissions.start(currentAccount(res).id, taxpayerId, body, sealedAnswerFor(res, startedAnswer));
      sendAnswer(res, startedAnswer, started);
    })
    .get(async (req, res) => {
      const taxpayerId = uuidParam(req, 'id', 'taxpayer_not_found');
      res.json({ data: (await remissions.list(currentAccount(res).id, taxpayerId)).map((r) => renderRemission(r)) });
    })
    .all(methodNotAllowed(['GET', 'POST']));
  router
    .route('/taxpayers/:id/remissions/:remissionId')
    .get(async (req, res) => {
      const taxpayerId = uuidParam(req, 'id', 'taxpayer_not_found');
      const found = await remissions.get(currentAccount(res).id, taxpayerId, uuidParam(req, 'remissionId', 'remission_not_found'));
      res.json({ data: renderRemission(found) });
    })
    .all(methodNotAllowed(['GET']));
  return router;
}

export const remissionRouteDocs: RouteDoc[] = [
  {
    method: 'post',
    path: '/taxpayers/:id/remissions',
    operationId: 'createRemission',
    tag: 'Remissions',
    summary: "Send a taxpayer's kept records on the authority's request (requerimiento)",
    description:
      "For a taxpayer in NO VERI*FACTU mode, whose records are kept signed: the records of the taxpayer's current " +
      'environment with an invoice date in `period`, in chain order, go to the authority’s requerimiento service ' +
      '(RequerimientoSOAP) with `requirement_reference`, signed and unchanged, in messages of up to 1,000 records, ' +
      'FinRequerimiento=S on the last. Answered at once (202) with the remission planned; the workers send it, with the ' +
      "authority's waiting time between messages and retries after faults. Follow it with GET.",
    body: remissionCreateSchema,
    responses: { 202: { description: 'The remission, planned and waiting for the workers.', json: remissionResponse } },
    problems: ['validation_failed', 'taxpayer_not_found', 'no_records_in_period', 'records_not_signed', 'remission_in_progress'],
  },
  {
    method: 'get',
    path: '/taxpayers/:id/remissions',
    operationId: 'listRemissions',
    tag: 'Remissions',
    summary: "A taxpayer's remissions on request",
    description: 'Newest first (the last 100), without their messages.',
    responses: { 200: { description: 'The remissions.', json: remissionListResponse } },
    problems: ['taxpayer_not_found'],
  },
  {
    method: 'get',
    path: '/taxpayers/:id/remissions/:remissionId',
    operationId: 'getRemission',
    tag: 'Remissions',
    summary: 'A remission on request, message by message',
    description:
      'Its progress (`messages_answered` of `message_count`) and each message: its attempts, the authority’s answer ' +
      '(CSV, counts, the records not taken as they were, with their codes) or, once the authority refused it, the ' +
      "remission's `error` with the code and its explanation in Spanish and English.",
    responses: { 200: { description: 'The remission with its messages.', json: remissionResponse } },
    problems: ['taxpayer_not_found', 'remission_not_found'],
  },
];
