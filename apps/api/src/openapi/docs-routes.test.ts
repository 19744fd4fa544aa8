import request from 'supertest';
import { createTestApp, type TestApp } from '../testing/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('/docs', () => {
  it('serves the interactive reference from this server only, under a CSP that allows nothing else', async () => {
    const page = await request(t.app)
      .get('/docs')
      .expect(200)
      .expect('Content-Type', /text\/html/);
    const csp = page.headers['content-security-policy'];
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/https?:|unsafe-eval/);
    const urls = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(urls.length).toBeGreaterThanOrEqual(3);
    for (const url of urls) {
      expect(url).toMatch(/^\/docs\//);
      await request(t.app).get(url).expect(200);
    }
    const start = await request(t.app)
      .get('/docs/start.js')
      .expect('Content-Type', /javascript/);
    expect(start.text).toContain('"/api/v1/openapi.json"');
  });

  it('answers 404 for files the package does not have', async () => {
    await request(t.app).get('/docs/assets/no-such-file.js').expect(404);
  });
});
