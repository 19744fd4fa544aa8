import { randomBytes } from 'node:crypto';
import { decryptSecret, encryptSecret } from '@vf/certificates/encrypt-secret';
import { WEBHOOK_TEST_EVENT } from '@vf/core';
import type { Db } from '@vf/db';
import { idempotencyStore, webhookStore, type WebhookDeliveryRow, type WebhookEndpointRow } from '@vf/db';
import { checkDestination, type DestinationPolicy } from '@vf/webhook-destination';
import { ApiError } from '../errors/api-error';
import { isUuid } from '../http/is-uuid';
import type { SealAnswer } from '../idempotency/sealed-answer';
import type { WebhookCreateRequest } from './webhook-schemas';

export type WebhookService = ReturnType<typeof createWebhookService>;

export interface CreatedWebhook {
  endpoint: WebhookEndpointRow;
  secret: string;
}

const notFound = () => new ApiError('webhook_not_found', 'No webhook endpoint with this id in your account.');

/** whsec_ + base64 of 32 random bytes: the format Standard Webhooks libraries accept as is. */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The URL's host is checked where it points now; a name that does not resolve yet is left to every delivery's check. */
async function checkUrl(url: string, destinations: DestinationPolicy): Promise<void> {
  const destination = await checkDestination(url, destinations);
  if (destination.ok || destination.unresolved) return;
  throw ApiError.validation(
    [{ field: 'url', code: 'invalid_url', message: `url ${destination.problem}: webhooks go to public addresses only` }],
    'Webhooks are delivered to public addresses only; an operator can allow an internal receiver (WEBHOOK_ALLOWED_HOSTS).',
  );
}

export function createWebhookService(deps: { db: Db; masterKey: Buffer; clock: () => Date; destinations: DestinationPolicy }) {
  const { db, masterKey } = deps;

  async function owned(accountId: string, id: string): Promise<WebhookEndpointRow> {
    const endpoint = isUuid(id) ? await webhookStore.findEndpoint(db, accountId, id) : undefined;
    if (!endpoint) throw notFound();
    return endpoint;
  }

  return {
    /**
     * The secret is returned here and stored encrypted. `revealLater` leaves it to be shown once more, by the
     * dashboard's page after its redirect; the API shows it in this answer only.
     */
    async create(
      accountId: string,
      input: WebhookCreateRequest,
      opts: { revealLater?: boolean } = {},
      answer?: SealAnswer<CreatedWebhook>,
    ): Promise<CreatedWebhook> {
      await checkUrl(input.url, deps.destinations);
      const secret = newSecret();
      return db.transaction(async (tx) => {
        const endpoint = await webhookStore.insertEndpoint(tx, {
          accountId,
          url: input.url,
          events: input.events,
          secret: encryptSecret(masterKey, Buffer.from(secret, 'utf8')),
          secretRevealedAt: opts.revealLater ? null : deps.clock(),
        });
        const created = { endpoint, secret };
        // The answer holds the secret: kept sealed (MASTER_KEY) with the endpoint, shown again only on a replay.
        if (answer) await idempotencyStore.keep(tx, answer(created));
        return created;
      });
    },

    list(accountId: string): Promise<WebhookEndpointRow[]> {
      return webhookStore.listEndpoints(db, accountId);
    },

    get: owned,

    /** The secret if it was never shown yet; undefined afterwards. */
    async revealSecretOnce(accountId: string, id: string): Promise<string | undefined> {
      const envelope = await webhookStore.revealSecret(db, accountId, id);
      return envelope && decryptSecret(masterKey, envelope).toString('utf8');
    },

    async remove(accountId: string, id: string): Promise<void> {
      if (!isUuid(id) || !(await webhookStore.deleteEndpoint(db, accountId, id))) throw notFound();
    },

    async deliveries(accountId: string, id: string, limit: number): Promise<WebhookDeliveryRow[]> {
      await owned(accountId, id);
      return webhookStore.recentDeliveries(db, id, limit);
    },

    /** A `webhook.test` event, delivered by the workers like any other (signed, retried). */
    async sendTest(accountId: string, id: string, answer?: SealAnswer<WebhookDeliveryRow>): Promise<WebhookDeliveryRow> {
      const endpoint = await owned(accountId, id);
      const payload = JSON.stringify({
        type: WEBHOOK_TEST_EVENT,
        timestamp: deps.clock().toISOString(),
        data: { webhook_id: endpoint.id, message: 'Test event from the VERI*FACTU service.' },
      });
      return db.transaction(async (tx) => {
        const delivery = await webhookStore.insertDelivery(tx, {
          endpointId: endpoint.id,
          invoiceId: null,
          eventType: WEBHOOK_TEST_EVENT,
          payload,
        });
        if (answer) await idempotencyStore.keep(tx, answer(delivery));
        return delivery;
      });
    },
  };
}
