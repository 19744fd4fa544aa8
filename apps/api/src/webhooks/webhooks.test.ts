import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { decryptSecret } from '@vf/certificates';
import type { ResolvedAddress } from '@vf/webhook-destination';
import { registerAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';

// Host names answer what this table says (any other does not resolve), so the checks after resolution are tested
// without depending on the machine's DNS.
const DNS: Record<string, ResolvedAddress[]> = {
  'hooks.example.com': [{ address: '93.184.215.14', family: 4 }],
  'h.example.com': [{ address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 }],
  localhost: [{ address: '127.0.0.1', family: 4 }],
  'metadata.example.com': [{ address: '169.254.169.254', family: 4 }],
  'split.example.com': [
    { address: '93.184.215.14', family: 4 },
    { address: 'fd12:3456::1', family: 6 },
  ],
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    // The operator allowed a local receiver by name: that name, not loopback addresses in general.
    config: { webhooks: { allowedHosts: ['localhost'] } },
    resolveHost: async (name) =>
      DNS[name] ?? Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' })),
  });
});
afterAll(() => t.close());

const create = (auth: Record<string, string>, body: unknown) =>
  request(t.app)
    .post('/api/v1/webhooks')
    .set(auth)
    .send(body as object);

describe('/api/v1/webhooks', () => {
  it('creates an endpoint and shows its whsec_ secret once; the secret is stored encrypted under the master key', async () => {
    const account = await registerAccount(t.app);
    const res = await create(account.auth, {
      url: 'https://hooks.example.com/verifactu',
      events: ['invoice.accepted', 'invoice.rejected'],
    }).expect(201);
    expect(res.headers.location).toBe(`/api/v1/webhooks/${res.body.data.id}`);
    expect(res.body.data).toEqual({
      id: expect.any(String),
      url: 'https://hooks.example.com/verifactu',
      events: ['invoice.accepted', 'invoice.rejected'],
      created_at: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    const one = await request(t.app).get(`/api/v1/webhooks/${res.body.data.id}`).set(account.auth).expect(200);
    expect(one.body.data.secret).toBeUndefined();
    const list = await request(t.app).get('/api/v1/webhooks').set(account.auth).expect(200);
    expect(list.body.data).toEqual([one.body.data]);
    const { rows } = await t.db.db.execute<{ secret: Buffer }>(sql`SELECT secret FROM webhook_endpoints WHERE id = ${res.body.data.id}`);
    expect(rows[0].secret.includes(Buffer.from(res.body.data.secret.slice(6)))).toBe(false);
    expect(decryptSecret(t.masterKey, rows[0].secret).toString()).toBe(res.body.data.secret);
  });

  it.each([
    ['http://hooks.example.com/x', 'http on a public host'],
    ['ftp://hooks.example.com/x', 'another scheme'],
    ['hooks.example.com/x', 'a relative URL'],
    ['https://user:pw@hooks.example.com/x', 'credentials in the URL'],
  ])('refuses %s (%s) with 422 and writes nothing', async (url) => {
    const account = await registerAccount(t.app);
    const res = await create(account.auth, { url, events: ['invoice.accepted'] }).expect(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toEqual([expect.objectContaining({ field: 'url', code: 'invalid_url' })]);
    expect((await request(t.app).get('/api/v1/webhooks').set(account.auth)).body.data).toEqual([]);
  });

  it.each([
    ['https://169.254.169.254/latest/meta-data/', 'the cloud metadata address (link-local)'],
    ['https://10.0.0.8/hook', 'a private address'],
    ['https://172.16.5.4/hook', 'a private address'],
    ['https://192.168.1.10/hook', 'a private address'],
    ['https://127.0.0.1/hook', 'loopback'],
    ['http://127.0.0.1:9000/hook', 'loopback over http, the allowed name aside'],
    ['https://0.0.0.0/hook', 'the unspecified address'],
    ['https://[::]/hook', 'the unspecified IPv6 address'],
    ['https://224.0.0.251/hook', 'multicast'],
    ['https://[fe80::1]/hook', 'IPv6 link-local'],
    ['https://[fd00::1]/hook', 'IPv6 unique-local'],
    ['https://[::ffff:169.254.169.254]/hook', 'IPv4-mapped'],
    ['https://[::ffff:8.8.8.8]/hook', 'IPv4-mapped, even of a public address'],
    ['https://2852039166/hook', 'the metadata address as one number'],
    ['https://0xa9.0xfe.0xa9.0xfe/hook', 'an address in hexadecimal'],
    ['https://8.8.2056/hook', 'a public address in a short form'],
    ['https://metadata.example.com/hook', 'a name resolving to link-local'],
    ['https://split.example.com/hook', 'a name resolving to one public and one unique-local address'],
  ])('refuses %s (%s) with 422 invalid_url and writes nothing', async (url) => {
    const account = await registerAccount(t.app);
    const res = await create(account.auth, { url, events: ['invoice.accepted'] }).expect(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ field: 'url', code: 'invalid_url' })]);
    expect((await request(t.app).get('/api/v1/webhooks').set(account.auth)).body.data).toEqual([]);
  });

  it('accepts a receiver on a host the operator allowed (WEBHOOK_ALLOWED_HOSTS), and public hosts, named or not', async () => {
    const account = await registerAccount(t.app);
    for (const url of [
      'http://localhost:8080/hook',
      'https://8.8.8.8/hook',
      'https://[2606:4700::1111]/hook',
      'https://h.example.com/hook',
    ])
      await create(account.auth, { url, events: ['invoice.error'] }).expect(201);
    // A name that does not resolve yet is accepted: every delivery checks it again before connecting.
    await create(account.auth, { url: 'https://not-yet.example.com/hook', events: ['invoice.error'] }).expect(201);
  });

  it('refuses unknown, repeated or missing events', async () => {
    const account = await registerAccount(t.app);
    const unknown = await create(account.auth, { url: 'https://h.example.com', events: ['invoice.paid'] }).expect(422);
    expect(unknown.body.errors[0]).toMatchObject({ field: 'events.0', code: 'invalid_value' });
    await create(account.auth, { url: 'https://h.example.com', events: ['invoice.error', 'invoice.error'] }).expect(422);
    await create(account.auth, { url: 'https://h.example.com', events: [] }).expect(422);
    await create(account.auth, { url: 'https://h.example.com' }).expect(422);
  });

  it("queues a test delivery, lists deliveries, and keeps another account's endpoint out of reach", async () => {
    const account = await registerAccount(t.app);
    const other = await registerAccount(t.app);
    const { body } = await create(account.auth, { url: 'https://h.example.com', events: ['invoice.registered'] }).expect(201);
    const id = body.data.id;
    const test = await request(t.app).post(`/api/v1/webhooks/${id}/test`).set(account.auth).expect(202);
    expect(test.body.data).toMatchObject({
      event_type: 'webhook.test',
      status: 'pending',
      attempts: 0,
      last_response_code: null,
      invoice_id: null,
    });
    expect(test.body.data.next_attempt_at).toEqual(expect.any(String));
    const deliveries = await request(t.app).get(`/api/v1/webhooks/${id}/deliveries`).set(account.auth).expect(200);
    expect(deliveries.body.data).toEqual([test.body.data]);
    for (const path of [`/api/v1/webhooks/${id}`, `/api/v1/webhooks/${id}/deliveries`]) {
      expect((await request(t.app).get(path).set(other.auth).expect(404)).body.code).toBe('webhook_not_found');
    }
    await request(t.app).post(`/api/v1/webhooks/${id}/test`).set(other.auth).expect(404);
    await request(t.app).delete(`/api/v1/webhooks/${id}`).set(other.auth).expect(404);
    await request(t.app).get(`/api/v1/webhooks/${randomUUID()}`).set(account.auth).expect(404);
    await request(t.app).get('/api/v1/webhooks/not-a-uuid').set(account.auth).expect(404);
    await request(t.app).delete(`/api/v1/webhooks/${id}`).set(account.auth).expect(204);
    await request(t.app).get(`/api/v1/webhooks/${id}`).set(account.auth).expect(404);
  });

  it('creates one endpoint for one Idempotency-Key, and replays the secret to that client (kept encrypted)', async () => {
    const account = await registerAccount(t.app);
    const key = randomUUID();
    const body = { url: 'https://h.example.com/once', events: ['invoice.accepted'] };
    const first = await create(account.auth, body).set('Idempotency-Key', key).expect(201);
    const again = await create(account.auth, body).set('Idempotency-Key', key).expect(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data).toEqual(first.body.data);
    expect((await request(t.app).get('/api/v1/webhooks').set(account.auth)).body.data).toHaveLength(1);
    // The kept answer holds the secret, so it is kept encrypted too.
    const { rows } = await t.db.db.execute<{ body: string }>(sql`SELECT response_body AS body FROM idempotency_keys WHERE key = ${key}`);
    expect(rows[0].body).not.toContain(first.body.data.secret.slice(6, 20));
    expect(Buffer.from(rows[0].body, 'base64').toString('latin1')).not.toContain(first.body.data.secret.slice(6, 20));
  });
});
