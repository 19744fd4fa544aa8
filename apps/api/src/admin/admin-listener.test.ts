import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import pino from 'pino';
import request from 'supertest';
import { createTestApp, type TestApp } from '../testing/test-app';
import { createAdminApp } from './create-admin-app';

const admin = { user: 'operator', password: 'a-long-admin-password' };
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

// With ADMIN_PORT, the process serves two apps on two ports: the tenants' and the operator's.
let t: TestApp;
let adminApp: ReturnType<typeof createAdminApp>;
beforeAll(async () => {
  const config = { masterKey: randomBytes(32), certificateDir: tmpdir(), admin, adminPort: 3001 };
  t = await createTestApp({ config });
  adminApp = createAdminApp({
    db: t.db.db,
    redis: t.redis,
    queues: t.queues,
    logger: pino({ level: 'silent' }),
    config: { ...config, queuePrefix: t.queues.submission.opts.prefix!, passwordHashCost: 4 },
  });
});
afterAll(() => t.close());

test('with an admin port, Bull Board and the metrics are not on the tenants’ port, whatever the credentials', async () => {
  for (const path of ['/admin/queues', '/admin/queues/api/queues', '/metrics']) {
    await request(t.app).get(path).set('Authorization', basic(admin.user, admin.password)).expect(404);
  }
  await request(t.app).get('/api/v1/health').expect(200);
});

test('the admin port serves them to the operator only, and nothing of the tenants’', async () => {
  const auth = basic(admin.user, admin.password);
  await request(adminApp).get('/admin/queues').expect(401);
  await request(adminApp).get('/metrics').set('Authorization', basic(admin.user, 'wrong')).expect(401);
  const board = await request(adminApp).get('/admin/queues/api/queues').set('Authorization', auth).expect(200);
  expect(board.body.queues.map((q: { name: string }) => q.name).sort()).toEqual(['invoice-submission', 'maintenance']);
  const metrics = await request(adminApp).get('/metrics').set('Authorization', auth).expect(200);
  expect(metrics.text).toContain('vf_queue_depth');
  for (const path of ['/api/v1/health', '/login', '/']) await request(adminApp).get(path).set('Authorization', auth).expect(404);
});
