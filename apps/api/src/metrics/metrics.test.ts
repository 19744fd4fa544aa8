import { randomBytes, randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { Scrape } from '@vf/metrics/testing';
import { invoiceBody, readyAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';

const admin = { user: 'operator', password: 'a-long-admin-password' };
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

describe('GET /metrics', () => {
  it('does not exist when no admin credentials are configured', async () => {
    const t = await createTestApp();
    try {
      await request(t.app).get('/metrics').set('Authorization', basic(admin.user, admin.password)).expect(404);
    } finally {
      await t.close();
    }
  });

  describe('with admin credentials configured', () => {
    let t: TestApp;
    const scrape = async () => {
      const res = await request(t.app).get('/metrics').set('Authorization', basic(admin.user, admin.password)).expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      return new Scrape(res.text);
    };

    beforeAll(async () => {
      t = await createTestApp({ config: { masterKey: randomBytes(32), certificateDir: tmpdir(), admin } });
    });
    afterAll(() => t.close());

    it('refuses a scrape without the operator credentials', async () => {
      for (const header of [undefined, basic(admin.user, 'wrong'), basic('someone', admin.password), `Bearer ${admin.password}`]) {
        const req = request(t.app).get('/metrics');
        const res = await (header ? req.set('Authorization', header) : req).expect(401);
        expect(res.headers['www-authenticate']).toMatch(/^Basic realm="metrics"/);
        expect(res.text).not.toContain('vf_');
      }
    });

    it('answers the operator in Prometheus text format, process metrics included', async () => {
      const s = await scrape();
      expect(s.type('process_cpu_user_seconds_total')).toBe('COUNTER');
      expect(s.type('vf_http_request_duration_seconds')).toBe('HISTOGRAM');
      expect(s.value('vf_backlog_source_up', { source: 'database' })).toBe(1);
      expect(s.value('vf_backlog_source_up', { source: 'queues' })).toBe(1);
    });

    it('counts registrations by result and times requests by route pattern, never by raw URL', async () => {
      const { account, taxpayerId, systemId } = await readyAccount(t.app);
      const before = await scrape();
      const body = invoiceBody(taxpayerId, systemId);
      await request(t.app).post('/api/v1/invoices').set(account.auth).send(body).expect(201);
      await request(t.app).post('/api/v1/invoices').set(account.auth).send(body).expect(409);
      await request(t.app)
        .post('/api/v1/invoices')
        .set(account.auth)
        .send({ ...body, invoice_number: '' })
        .expect(422);
      await request(t.app).get(`/api/v1/invoices/${randomUUID()}`).set(account.auth).expect(404);
      const after = await scrape();

      const moved = (result: string) =>
        after.value('vf_registrations_total', { result }) - before.value('vf_registrations_total', { result });
      expect(moved('created')).toBe(1);
      expect(moved('duplicate_invoice')).toBe(1);
      expect(moved('validation_failed')).toBe(1);

      const timed = (labels: Record<string, string>) =>
        after.count('vf_http_request_duration_seconds', labels) - before.count('vf_http_request_duration_seconds', labels);
      expect(timed({ method: 'POST', route: '/api/v1/invoices', status_code: '201' })).toBe(1);
      expect(timed({ method: 'POST', route: '/api/v1/invoices', status_code: '409' })).toBe(1);
      // An error answered by the app-level handler still carries the full pattern of the route that threw it.
      expect(timed({ method: 'GET', route: '/api/v1/invoices/:id', status_code: '404' })).toBe(1);
      const routes = after.samples('vf_http_request_duration_seconds_count').map((x) => x.labels.route);
      expect(routes.filter((r) => UUID.test(r))).toEqual([]);
    });

    it('shows records by authority_status as the database holds them, sandbox scenario records aside', async () => {
      const { account, taxpayerId, systemId } = await readyAccount(t.app);
      for (let i = 0; i < 3; i += 1)
        await request(t.app).post('/api/v1/invoices').set(account.auth).send(invoiceBody(taxpayerId, systemId)).expect(201);
      await t.db.db.execute(
        sql`UPDATE invoices SET authority_status = 'accepted' WHERE id = (SELECT id FROM invoices WHERE taxpayer_id = ${taxpayerId} LIMIT 1)`,
      );
      // A rehearsed refusal of the whole message, left in error: the tenant's to resend, no operator's alert.
      const rehearsed = await request(t.app)
        .post('/api/v1/invoices')
        .set(account.auth)
        .set('Sandbox-Scenario', 'message_refused:4104')
        .send(invoiceBody(taxpayerId, systemId))
        .expect(201);
      await t.db.db.execute(sql`UPDATE invoices SET authority_status = 'error' WHERE id = ${rehearsed.body.data.id}`);
      const { rows } = await t.db.db.execute(
        sql`SELECT authority_status AS status, count(*)::int AS n FROM invoices WHERE sandbox_scenario IS NULL GROUP BY 1`,
      );
      const expected = Object.fromEntries((rows as { status: string; n: number }[]).map((r) => [r.status, r.n]));
      expect(expected.accepted).toBeGreaterThanOrEqual(1);

      const s = await scrape();
      for (const status of ['queued', 'sent', 'accepted', 'accepted_with_warnings', 'rejected', 'error']) {
        expect(s.value('vf_records', { authority_status: status })).toBe(expected[status] ?? 0);
      }
    });

    it('shows each queue’s depth and how long its oldest ready job has waited', async () => {
      await t.queues.submission.obliterate({ force: true });
      await t.queues.maintenance.obliterate({ force: true });
      const now = Date.now();
      // Nobody works these queues in this test: what is added stays where it is.
      await t.queues.maintenance.add('old', {}, { timestamp: now - 120_000 });
      await t.queues.maintenance.add('new', {}, { timestamp: now - 1_000 });
      // Slept and woke 5 s ago: it has been ready for 5 s, not since it was first added 10 minutes ago.
      await t.queues.submission.add('send', { chainId: randomUUID(), readyAt: now - 5_000 }, { timestamp: now - 600_000 });
      // Due but not yet promoted (no worker fetches): as ready as a waiting job.
      await t.queues.submission.add('send', { chainId: randomUUID() }, { delay: 1 });
      // Not due for an hour: backlog, but nothing a worker could take now.
      await t.queues.submission.add('send', { chainId: randomUUID() }, { delay: 3_600_000 });
      await new Promise((resolve) => setTimeout(resolve, 50));

      const s = await scrape();
      expect(s.value('vf_queue_depth', { queue: 'maintenance' })).toBe(2);
      expect(s.value('vf_queue_jobs', { queue: 'maintenance', state: 'waiting' })).toBe(2);
      const maintenanceAge = s.value('vf_queue_oldest_waiting_age_seconds', { queue: 'maintenance' });
      expect(maintenanceAge).toBeGreaterThanOrEqual(120);
      expect(maintenanceAge).toBeLessThan(120 + 60);

      expect(s.value('vf_queue_depth', { queue: 'invoice-submission' })).toBe(2);
      expect(s.value('vf_queue_jobs', { queue: 'invoice-submission', state: 'waiting' })).toBe(1);
      expect(s.value('vf_queue_jobs', { queue: 'invoice-submission', state: 'delayed' })).toBe(2);
      const submissionAge = s.value('vf_queue_oldest_waiting_age_seconds', { queue: 'invoice-submission' });
      expect(submissionAge).toBeGreaterThanOrEqual(5);
      expect(submissionAge).toBeLessThan(5 + 60);

      await t.queues.submission.obliterate({ force: true });
      await t.queues.maintenance.obliterate({ force: true });
      const empty = await scrape();
      expect(empty.value('vf_queue_depth', { queue: 'invoice-submission' })).toBe(0);
      expect(empty.value('vf_queue_oldest_waiting_age_seconds', { queue: 'invoice-submission' })).toBe(0);
    });
  });
});
