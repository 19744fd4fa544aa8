import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import request from 'supertest';
import { createTestApp, type TestApp } from '../testing/test-app';

const admin = { user: 'operator', password: 'a-long-admin-password' };
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('Bull Board at /admin/queues', () => {
  it('does not exist when no admin credentials are configured', async () => {
    const t = await createTestApp();
    try {
      await request(t.app).get('/admin/queues').set('Authorization', basic(admin.user, admin.password)).expect(404);
    } finally {
      await t.close();
    }
  });

  describe('with admin credentials configured', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ config: { masterKey: randomBytes(32), certificateDir: tmpdir(), admin } });
    });
    afterAll(() => t.close());

    it('challenges with Basic auth and refuses wrong credentials', async () => {
      for (const header of [
        undefined,
        basic(admin.user, 'wrong'),
        basic('someone', admin.password),
        `Bearer ${admin.password}`,
        'Basic !!!',
      ]) {
        const req = request(t.app).get('/admin/queues');
        const res = await (header ? req.set('Authorization', header) : req).expect(401);
        expect(res.headers['www-authenticate']).toMatch(/^Basic realm="queues"/);
        expect(res.text).not.toContain('invoice-submission');
      }
      await request(t.app).get('/admin/queues/api/queues').expect(401);
    });

    it('serves the board and both queues to the operator', async () => {
      const auth = basic(admin.user, admin.password);
      const page = await request(t.app).get('/admin/queues').set('Authorization', auth).expect(200);
      expect(page.headers['content-type']).toMatch(/html/);
      const api = await request(t.app).get('/admin/queues/api/queues').set('Authorization', auth).expect(200);
      expect(api.body.queues.map((q: { name: string }) => q.name).sort()).toEqual(['invoice-submission', 'maintenance']);
    });
  });
});
