import { Router } from 'express';
import { currentAccount } from '../auth/require-api-key';
import { methodNotAllowed } from '../http/method-not-allowed';
import { parseWith } from '../http/parse-with';
import { deliveryQuerySchema, webhookCreateSchema } from './webhook-schemas';
import type { WebhookService } from './webhook-service';
import { renderDelivery, renderWebhook } from './webhook-view';

export function webhookRoutes(webhooks: WebhookService): Router {
  const router = Router();

  router
    .route('/webhooks')
    .get(async (_req, res) => {
      res.json({ data: (await webhooks.list(currentAccount(res).id)).map(renderWebhook) });
    })
    .post(async (req, res) => {
      const { endpoint, secret } = await webhooks.create(currentAccount(res).id, parseWith(webhookCreateSchema, req.body));
      res
        .status(201)
        .location(`/api/v1/webhooks/${endpoint.id}`)
        .json({ message: 'Keep the secret: it is shown only in this answer.', data: { ...renderWebhook(endpoint), secret } });
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
      const delivery = await webhooks.sendTest(currentAccount(res).id, req.params.id);
      res.status(202).json({ message: 'Test event queued; the workers deliver it within seconds.', data: renderDelivery(delivery) });
    })
    .all(methodNotAllowed(['POST']));

  return router;
}
