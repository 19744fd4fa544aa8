import request from 'supertest';
import { createTestApp, type TestApp } from '@vf/api/testing';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('dashboard assets', () => {
  it('links only assets the app serves itself, with a content version in the URL', async () => {
    const page = (await request(t.app).get('/login').expect(200)).text;
    const urls = [...page.matchAll(/<(?:link|script)[^>]*(?:href|src)="([^"]+)"/g)].map((m) => m[1]);
    expect(urls).toHaveLength(2);
    for (const url of urls) expect(url).toMatch(/^\/assets\/dashboard\.(css|js)\?v=[0-9a-f]{12}$/);
    expect(page).not.toMatch(/https?:\/\/(?!prewww|www)/);
  });

  it('lets browsers keep a versioned asset for a year and revalidate an unversioned one', async () => {
    const page = (await request(t.app).get('/login')).text;
    const css = /href="(\/assets\/dashboard\.css\?v=[0-9a-f]+)"/.exec(page)![1];
    const versioned = await request(t.app).get(css).expect(200);
    expect(versioned.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(versioned.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const plain = await request(t.app).get('/assets/dashboard.css').expect(200);
    expect(plain.headers['cache-control']).toBe('no-cache');
    await request(t.app).get('/assets/dashboard.css').set('If-None-Match', plain.headers.etag).expect(304);
    await request(t.app).get('/assets/other.js').expect(404);
  });

  it('sends a policy that forbids loading anything from elsewhere', async () => {
    const res = await request(t.app).get('/login');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['x-frame-options']).toBe('DENY');
  });
});
