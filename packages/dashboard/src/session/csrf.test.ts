import request from 'supertest';
import { createTestApp, type TestApp } from '@vf/api/testing';
import { csrfTokenIn, signUp } from '../testing/dashboard-agent';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('CSRF protection', () => {
  it('puts a token in every form of every page', async () => {
    const { agent } = await signUp(t.app);
    for (const path of ['/app', '/app/taxpayers/new', '/app/systems/new', '/app/api-key', '/app/invoices']) {
      const page = (await agent.get(path).expect(200)).text;
      const postForms = page.match(/<form method="post"[^>]*>/g) ?? [];
      const tokens = page.match(/name="_csrf" value="[^"]+"/g) ?? [];
      expect(postForms.length).toBeGreaterThan(0);
      expect(tokens.length).toBe(postForms.length);
    }
  });

  it('refuses a POST without the token with a plain 403 page, and changes nothing', async () => {
    const { agent, auth } = await signUp(t.app);
    const res = await agent.post('/app/api-key/regenerate').type('form').send({});
    expect(res.status).toBe(403);
    expect(res.type).toBe('text/html');
    expect(res.text).toContain('This form could not be accepted');
    // The key was not regenerated: the old one still works.
    await request(t.app).get('/api/v1/account').set(auth).expect(200);
  });

  it("refuses another session's token", async () => {
    const victim = await signUp(t.app);
    const attacker = await signUp(t.app);
    const attackerToken = csrfTokenIn((await attacker.agent.get('/app/api-key')).text);
    const res = await victim.agent.post('/app/api-key/regenerate').type('form').send({ _csrf: attackerToken });
    expect(res.status).toBe(403);
    await request(t.app).get('/api/v1/account').set(victim.auth).expect(200);
  });

  it('refuses a sign-in form posted without the pre-session cookie that issued its token', async () => {
    const page = await request(t.app).get('/login');
    const res = await request(t.app)
      .post('/login')
      .type('form')
      .send({ _csrf: csrfTokenIn(page.text), email: 'a@example.test', password: 'x' });
    expect(res.status).toBe(403);
  });

  it('refuses a taxpayer upload form without the token, multipart included', async () => {
    const { agent } = await signUp(t.app);
    const res = await agent.post('/app/taxpayers').field('nif', '89890001K').field('name', 'No token SL');
    expect(res.status).toBe(403);
    expect((await agent.get('/app/taxpayers')).text).not.toContain('No token SL');
  });
});
