import { Router, type Request } from 'express';
import { currentAccount } from '../auth/require-api-key';
import { sealedAnswerFor, sendAnswer, type JsonAnswer } from '../idempotency/sealed-answer';
import { ApiError } from '../errors/api-error';
import { isUuid } from '../http/is-uuid';
import { methodNotAllowed } from '../http/method-not-allowed';
import { parseWith } from '../http/parse-with';
import { pageQuerySchema } from '../shared/page-query';
import { savedTaxpayerResponse, taxpayer, taxpayerCreateSchema, taxpayerUpdateSchema } from './taxpayer-schemas';
import type { SavedTaxpayer, TaxpayerService } from './taxpayer-service';
import { renderTaxpayer } from './taxpayer-view';
import { envelope, pageOf } from '../shared/answer-schema-parts';
import type { RouteDoc } from '../openapi/route-doc';

function taxpayerId(req: Request): string {
  const { id } = req.params;
  if (!isUuid(id)) throw new ApiError('taxpayer_not_found', 'No taxpayer with this id in your account.');
  return id;
}

export function taxpayerRoutes(taxpayers: TaxpayerService, clock: () => Date): Router {
  const router = Router();
  const renderSaved = ({ taxpayer, warnings }: SavedTaxpayer) => ({ data: { ...renderTaxpayer(taxpayer, clock()), warnings } });
  const createdAnswer = (saved: SavedTaxpayer): JsonAnswer => ({
    status: 201,
    location: `/api/v1/taxpayers/${saved.taxpayer.id}`,
    body: renderSaved(saved),
  });
  const updatedAnswer = (saved: SavedTaxpayer): JsonAnswer => ({ status: 200, body: renderSaved(saved) });

  router
    .route('/taxpayers')
    .get(async (req, res) => {
      const page = await taxpayers.listPage(currentAccount(res).id, parseWith(pageQuerySchema, req.query));
      const now = clock();
      res.json({ data: page.items.map((t) => renderTaxpayer(t, now)), next_cursor: page.nextCursor });
    })
    .post(async (req, res) => {
      const input = parseWith(taxpayerCreateSchema, req.body);
      sendAnswer(res, createdAnswer, await taxpayers.create(currentAccount(res).id, input, sealedAnswerFor(res, createdAnswer)));
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/taxpayers/:id')
    .get(async (req, res) => {
      res.json({ data: renderTaxpayer(await taxpayers.get(currentAccount(res).id, taxpayerId(req)), clock()) });
    })
    .put(async (req, res) => {
      const id = taxpayerId(req);
      const input = parseWith(taxpayerUpdateSchema, req.body);
      sendAnswer(res, updatedAnswer, await taxpayers.update(currentAccount(res).id, id, input, sealedAnswerFor(res, updatedAnswer)));
    })
    .delete(async (req, res) => {
      await taxpayers.remove(currentAccount(res).id, taxpayerId(req));
      res.status(204).end();
    })
    .all(methodNotAllowed(['GET', 'PUT', 'DELETE']));

  return router;
}

const CERTIFICATE_PROBLEMS = [
  'certificate_path_not_allowed',
  'certificate_unreadable',
  'certificate_password_invalid',
  'certificate_without_key',
  'certificate_expired',
] as const;

export const taxpayerRouteDocs: RouteDoc[] = [
  {
    method: 'get',
    operationId: 'listTaxpayers',
    path: '/taxpayers',
    tag: 'Taxpayers',
    summary: 'List taxpayers',
    query: pageQuerySchema,
    responses: { 200: { description: 'A page of taxpayers, newest first.', json: pageOf(taxpayer) } },
    problems: ['validation_failed'],
  },
  {
    method: 'post',
    operationId: 'createTaxpayer',
    path: '/taxpayers',
    tag: 'Taxpayers',
    summary: 'Add a taxpayer (obligado emisor), with or without its certificate',
    body: taxpayerCreateSchema,
    responses: {
      201: {
        description: 'Created, with certificate warnings.',
        json: savedTaxpayerResponse,
        headers: { Location: 'The new taxpayer’s URL.' },
      },
    },
    problems: ['validation_failed', 'taxpayer_exists', 'taxpayer_claimed', 'signing_certificate_unusable', ...CERTIFICATE_PROBLEMS],
  },
  {
    method: 'get',
    operationId: 'getTaxpayer',
    path: '/taxpayers/:id',
    tag: 'Taxpayers',
    summary: 'One taxpayer',
    responses: { 200: { description: 'The taxpayer.', json: envelope(taxpayer) } },
    problems: ['taxpayer_not_found'],
  },
  {
    method: 'put',
    operationId: 'updateTaxpayer',
    path: '/taxpayers/:id',
    tag: 'Taxpayers',
    summary: 'Change a taxpayer (only the fields given)',
    body: taxpayerUpdateSchema,
    responses: { 200: { description: 'Updated, with certificate warnings.', json: savedTaxpayerResponse } },
    problems: [
      'validation_failed',
      'taxpayer_not_found',
      'taxpayer_exists',
      'taxpayer_claimed',
      'taxpayer_has_invoices',
      'signing_certificate_unusable',
      ...CERTIFICATE_PROBLEMS,
    ],
  },
  {
    method: 'delete',
    operationId: 'deleteTaxpayer',
    path: '/taxpayers/:id',
    tag: 'Taxpayers',
    summary: 'Delete a taxpayer without invoices',
    responses: { 204: { description: 'Deleted.' } },
    problems: ['taxpayer_not_found', 'taxpayer_has_invoices'],
  },
];
