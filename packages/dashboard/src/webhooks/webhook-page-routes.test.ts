import { sql } from 'drizzle-orm';
import request from 'supertest';
import { decryptSecret } from '@vf/certificates';
import { createTestApp, type TestApp } from '@vf/api/testing';
import { signUp, submitForm } from '../testing/dashboard-agent';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const secretIn = (page: string) => /data-testid="webhook-secret">([^<]+)</.exec(page)?.[1];

describe('webhooks in the dashboard', () => {
  it('adds a webhook (POST-redirect-GET), shows its secret once, and the API lists it', async () => {
    const a = await signUp(t.app);
    const res = await submitForm(a.agent, '/app/webhooks', '/app/webhooks', {
      url: 'https://erp.example.es/avisos',
      events: ['invoice.accepted', 'invoice.rejected'],
    } as never);
    expect(res.status).toBe(303);
    const page = await a.agent.get(res.headers.location).expect(200);
    expect(page.text).toContain('Webhook created.');
    const secret = secretIn(page.text);
    expect(secret).toMatch(/^whsec_/);
    const { rows } = await t.db.db.execute<{ secret: Buffer }>(sql`SELECT secret FROM webhook_endpoints`);
    expect(rows.map((r) => decryptSecret(t.masterKey, r.secret).toString())).toContain(secret);
    // A reload shows the page without the secret, and creates nothing.
    const reload = await a.agent.get(res.headers.location).expect(200);
    expect(secretIn(reload.text)).toBeUndefined();
    const api = await request(t.app).get('/api/v1/webhooks').set(a.auth).expect(200);
    expect(api.body.data).toEqual([
      expect.objectContaining({ url: 'https://erp.example.es/avisos', events: ['invoice.accepted', 'invoice.rejected'] }),
    ]);
  });

  it('names the problems of an insecure URL and of no events, keeping what was typed', async () => {
    const a = await signUp(t.app);
    const res = await submitForm(a.agent, '/app/webhooks', '/app/webhooks', { url: 'http://erp.example.es/avisos' });
    expect(res.status).toBe(422);
    expect(res.text).toContain('URL must use https');
    expect(res.text).toContain('Events is required.');
    expect(res.text).toContain('value="http://erp.example.es/avisos"');
    expect((await request(t.app).get('/api/v1/webhooks').set(a.auth)).body.data).toEqual([]);
  });

  it('sends a test event, lists it among the recent deliveries, and deletes the webhook', async () => {
    const a = await signUp(t.app);
    const created = await submitForm(a.agent, '/app/webhooks', '/app/webhooks', {
      url: 'https://erp.example.es/avisos',
      events: 'invoice.error',
    });
    const path = created.headers.location.split('?')[0];
    const test = await submitForm(a.agent, path, `${path}/test`, {});
    expect(test.status).toBe(303);
    const page = await a.agent.get(test.headers.location).expect(200);
    expect(page.text).toContain('Test event queued');
    expect(page.text).toContain('<code>webhook.test</code>');
    expect(page.text).toContain('>Pending<');
    const deleted = await submitForm(a.agent, path, `${path}/delete`, {});
    expect(deleted.headers.location).toBe('/app/webhooks?notice=webhook_deleted');
    await a.agent.get(path).expect(404);
  });

  it("does not show another account's webhook", async () => {
    const a = await signUp(t.app);
    const b = await signUp(t.app);
    const created = await submitForm(a.agent, '/app/webhooks', '/app/webhooks', {
      url: 'https://erp.example.es/avisos',
      events: 'invoice.error',
    });
    await b.agent.get(created.headers.location.split('?')[0]).expect(404);
  });
});
