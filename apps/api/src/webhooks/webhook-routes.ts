import { Router } from 'express';
import Joi from 'joi';
import type { WebhookDeliveryRow } from '@vf/db';
import { currentAccount } from '../auth/require-api-key';
import { sealedAnswerFor, sendAnswer, type JsonAnswer } from '../idempotency/sealed-answer';
import { methodNotAllowed } from '../http/method-not-allowed';
import { parseWith } from '../http/parse-with';
import { envelope } from '../shared/answer-schema-parts';
import type { RouteDoc } from '../openapi/route-doc';
import { createdWebhookResponse, deliveryQuerySchema, webhook, webhookCreateSchema, webhookDelivery } from './webhook-schemas';
import type { CreatedWebhook, WebhookService } from './webhook-service';
import { renderDelivery, renderWebhook } from './webhook-view';

const createdAnswer = ({ endpoint, secret }: CreatedWebhook): JsonAnswer => ({
  status: 201,
  location: `/api/v1/webhooks/${endpoint.id}`,
  body: { message: 'Keep the secret: it is shown only in this answer.', data: { ...renderWebhook(endpoint), secret } },
});

const testAnswer = (delivery: WebhookDeliveryRow): JsonAnswer => ({
  status: 202,
  body: { message: 'Test event queued; the workers deliver it within seconds.', data: renderDelivery(delivery) },
});

export function webhookRoutes(webhooks: WebhookService): Router {
  const router = Router();

  router
    .route('/webhooks')
    .get(async (_req, res) => {
      res.json({ data: (await webhooks.list(currentAccount(res).id)).map(renderWebhook) });
    })
    .post(async (req, res) => {
      const input = parseWith(webhookCreateSchema, req.body);
      sendAnswer(res, createdAnswer, await webhooks.create(currentAccount(res).id, input, {}, sealedAnswerFor(res, createdAnswer)));
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/webhooks/:id')
    .get(async (req, res) => {
      res.json({ data: renderWebhook(await webhooks.get(currentAccount(res).id, req.params.id)) });
    })
    .delete(async (req, res) => {
      await webhooks.remove(currentAccount(res).id, req.params.id);
      res.status(204).end();
    })
    .all(methodNotAllowed(['GET', 'DELETE']));

  router
    .route('/webhooks/:id/deliveries')
    .get(async (req, res) => {
      const { limit } = parseWith(deliveryQuerySchema, req.query);
      res.json({ data: (await webhooks.deliveries(currentAccount(res).id, req.params.id, limit)).map(renderDelivery) });
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/webhooks/:id/test')
    .post(async (req, res) => {
      sendAnswer(res, testAnswer, await webhooks.sendTest(currentAccount(res).id, req.params.id, sealedAnswerFor(res, testAnswer)));
    })
    .all(methodNotAllowed(['POST']));

  return router;
}

export const webhookRouteDocs: RouteDoc[] = [
  {
    method: 'get',
    operationId: 'listWebhooks',
    path: '/webhooks',
    tag: 'Webhooks',
    summary: 'Your webhook endpoints',
    responses: { 200: { description: 'Every endpoint.', json: envelope(Joi.array().items(webhook)) } },
    problems: [],
  },
  {
    method: 'post',
    operationId: 'createWebhook',
    path: '/webhooks',
    tag: 'Webhooks',
    summary: 'Add an endpoint for invoice events (Standard Webhooks signatures)',
    body: webhookCreateSchema,
    responses: {
      201: {
        description: 'Added; the signing secret is shown only here.',
        json: createdWebhookResponse,
        headers: { Location: 'The endpoint’s URL.' },
      },
    },
    problems: ['validation_failed'],
  },
  {
    method: 'get',
    operationId: 'getWebhook',
    path: '/webhooks/:id',
    tag: 'Webhooks',
    summary: 'One endpoint',
    responses: { 200: { description: 'The endpoint.', json: envelope(webhook) } },
    problems: ['webhook_not_found'],
  },
  {
    method: 'delete',
    operationId: 'deleteWebhook',
    path: '/webhooks/:id',
    tag: 'Webhooks',
    summary: 'Remove an endpoint',
    responses: { 204: { description: 'Removed.' } },
    problems: ['webhook_not_found'],
  },
  {
    method: 'get',
    operationId: 'listWebhookDeliveries',
    path: '/webhooks/:id/deliveries',
    tag: 'Webhooks',
    summary: 'Recent deliveries to an endpoint',
    query: deliveryQuerySchema,
    responses: { 200: { description: 'Newest first.', json: envelope(Joi.array().items(webhookDelivery)) } },
    problems: ['validation_failed', 'webhook_not_found'],
  },
  {
    method: 'post',
    operationId: 'testWebhook',
    path: '/webhooks/:id/test',
    tag: 'Webhooks',
    summary: 'Queue a test event to an endpoint',
    responses: { 202: { description: 'Queued.', json: envelope(webhookDelivery) } },
    problems: ['webhook_not_found'],
  },
];
