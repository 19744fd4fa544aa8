import request from 'supertest';
import { createTestApp, type TestApp } from '@vf/api/testing';
import { signUp, submitForm } from '../testing/dashboard-agent';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('API key page', () => {
  it('shows only the hint of the current key', async () => {
    const a = await signUp(t.app);
    const page = (await a.agent.get('/app/api-key').expect(200)).text;
    expect(page).toContain(`<code data-testid="api-key-hint">${a.apiKey.slice(0, 8)}…</code>`);
    expect(page).not.toContain(a.apiKey);
  });

  it('regenerates the key: the new one is shown once with a copy button after the redirect, and the old one is refused at once', async () => {
    const a = await signUp(t.app);
    const posted = await submitForm(a.agent, '/app/api-key', '/app/api-key/regenerate', {});
    // POST-redirect-GET: the key is never in the URL; the page after the redirect shows it.
    expect(posted.status).toBe(303);
    expect(posted.headers.location).toBe('/app/api-key');
    const res = await a.agent.get('/app/api-key').expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const newKey = /data-testid="new-api-key">([^<]+)</.exec(res.text)![1];
    expect(posted.text).not.toContain(newKey);
    expect(newKey).not.toBe(a.apiKey);
    expect(res.text).toContain('data-copy-target="#new-api-key"');
    expect(res.text).toContain('it is shown only this once');

    const refused = await request(t.app).get('/api/v1/account').set(a.auth).expect(401);
    expect(refused.body.detail).toMatch(/not valid/);
    await request(t.app).get('/api/v1/account').set('Authorization', `Bearer ${newKey}`).expect(200);
    expect((await a.agent.get('/app/api-key')).text).not.toContain(newKey);
  });
});
