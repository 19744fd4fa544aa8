import type { Express } from 'express';
import request from 'supertest';
import { webhookEventsFor, type AuthorityStatus } from '@vf/core';
import type { Party } from './worker-test-env';
import type { WebhookReceiver } from './webhook-receiver';

/** Subscribes the receiver to `events` through the API, keeping the secret it is given; returns the webhook's id. */
export async function subscribe(api: Express, party: Party, r: WebhookReceiver, events: string[]): Promise<string> {
  const res = await request(api).post('/api/v1/webhooks').set(party.account.auth).send({ url: r.url, events }).expect(201);
  r.secret = res.body.data.secret;
  return res.body.data.id;
}

/** The events an invoice's committed history stands for, in order: what a receiver must get. */
export async function historyEvents(api: Express, party: Party, invoiceId: string): Promise<{ type: string; status: string }[]> {
  const res = await request(api).get(`/api/v1/invoices/${invoiceId}`).set(party.account.auth).expect(200);
  const history = res.body.data.status_history as { status: AuthorityStatus }[];
  return history.flatMap((h, i) =>
    webhookEventsFor({ recordType: 'registration', status: h.status, previousStatus: i === 0 ? null : history[i - 1].status }).map(
      (type) => ({ type, status: h.status }),
    ),
  );
}
