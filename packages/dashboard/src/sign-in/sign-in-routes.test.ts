import { createHash, randomUUID } from 'node:crypto';
import request from 'supertest';
import { webSessions } from '@vf/db';
import { eq } from 'drizzle-orm';
import { registerAccount, createTestApp, type TestApp } from '@vf/api/testing';
import { browser, csrfTokenIn, signIn, signUp, submitForm } from '../testing/dashboard-agent';

let t: TestApp;
beforeAll(async () => {
  // As behind a TLS-terminating proxy (TRUST_PROXY): X-Forwarded-Proto and X-Forwarded-For are believed.
  t = await createTestApp({ config: { trustProxy: true } });
});
afterAll(() => t.close());

function sessionCookie(setCookie: string[] | string | undefined): string | undefined {
  return ([] as string[]).concat(setCookie ?? []).find((c) => c.startsWith('vf_session='));
}

describe('sign-up', () => {
  it('creates an account whose API key, shown once on the page, works on the API', async () => {
    const { agent, apiKey, email } = await signUp(t.app, 'Ana Gestora');
    const me = await request(t.app).get('/api/v1/account').set('Authorization', `Bearer ${apiKey}`).expect(200);
    expect(me.body.data.email).toBe(email);
    const overview = await agent.get('/app').expect(200);
    expect(overview.text).toContain('Ana Gestora');
    // The key exists only in that one answer: no other page shows it.
    expect((await agent.get('/app/api-key')).text).not.toContain(apiKey);
  });

  it('refuses an email that already has an account (the same accounts as /auth/register)', async () => {
    const existing = await registerAccount(t.app);
    const agent = browser(t.app);
    const res = await submitForm(agent, '/signup', '/signup', {
      name: 'X',
      email: existing.email,
      password: 'another long password',
      password_confirmation: 'another long password',
    });
    expect(res.status).toBe(409);
    expect(res.text).toContain('An account with this email already exists');
    expect(res.text).toContain(`value="${existing.email}"`);
  });

  it('names each problem next to its field: short password, bad email, mismatch', async () => {
    const agent = browser(t.app);
    const res = await submitForm(agent, '/signup', '/signup', {
      name: '',
      email: 'not-an-email',
      password: 'short',
      password_confirmation: 'short',
    });
    expect(res.status).toBe(422);
    expect(res.text).toContain('Your name or company is required.');
    expect(res.text).toContain('Email must be a valid email.');
    expect(res.text).toContain('Password must be at least 12 characters.');
    expect(res.text).toContain('href="#field-password"');

    const mismatch = await submitForm(agent, '/signup', '/signup', {
      name: 'Y',
      email: `${randomUUID()}@example.test`,
      password: 'a long password 1',
      password_confirmation: 'a long password 2',
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.text).toContain('The two passwords do not match');
  });
});

describe('sign-in and sign-out', () => {
  it("signs in with the API account's email and password and sets a protected session cookie", async () => {
    const account = await registerAccount(t.app);
    const agent = browser(t.app);
    const res = await submitForm(agent, '/login', '/login', { email: account.email.toUpperCase(), password: account.password });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/app');
    const cookie = sessionCookie(res.headers['set-cookie'])!;
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).not.toMatch(/; Secure/);
    await agent.get('/app').expect(200);
  });

  it('marks the cookie Secure when the request came over HTTPS', async () => {
    const account = await registerAccount(t.app);
    // The agent's cookie jar would not send Secure cookies over the test's plain HTTP, so cookies go by hand.
    const page = await request(t.app).get('/login').set('X-Forwarded-Proto', 'https');
    const preSession = ([] as string[]).concat(page.headers['set-cookie'] ?? []).find((c) => c.startsWith('vf_csrf='))!;
    expect(preSession).toMatch(/; Secure/);
    const res = await request(t.app)
      .post('/login')
      .set('X-Forwarded-Proto', 'https')
      .set('Cookie', preSession.split(';')[0])
      .type('form')
      .send({ _csrf: csrfTokenIn(page.text), email: account.email, password: account.password });
    expect(res.status).toBe(303);
    expect(sessionCookie(res.headers['set-cookie'])).toMatch(/; Secure/);
  });

  it('stores only the digest of the session token', async () => {
    const account = await registerAccount(t.app);
    const agent = browser(t.app);
    const res = await submitForm(agent, '/login', '/login', { email: account.email, password: account.password });
    const token = /^vf_session=([^;]+)/.exec(sessionCookie(res.headers['set-cookie'])!)![1];
    const digest = createHash('sha256').update(token).digest('hex');
    const rows = await t.db.db.select().from(webSessions).where(eq(webSessions.tokenDigest, digest));
    expect(rows).toHaveLength(1);
    const all = await t.db.db.select({ d: webSessions.tokenDigest }).from(webSessions);
    expect(all.map((r) => r.d)).not.toContain(token);
  });

  it('says plainly when the password is wrong, without revealing whether the email exists', async () => {
    const account = await registerAccount(t.app);
    const wrong = await submitForm(browser(t.app), '/login', '/login', { email: account.email, password: 'not the password' });
    const unknown = await submitForm(browser(t.app), '/login', '/login', {
      email: `${randomUUID()}@example.test`,
      password: 'not the password',
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.text).toContain('The email or password is not right. 4 attempts left');
    expect(unknown.text).toContain('The email or password is not right. 4 attempts left');
  });

  it('returns to the page that asked for sign-in, but never to another site', async () => {
    const account = await registerAccount(t.app);
    const agent = browser(t.app);
    const asked = await agent.get('/app/taxpayers?x=1').expect(303);
    expect(asked.headers.location).toBe('/login?next=%2Fapp%2Ftaxpayers%3Fx%3D1');
    const back = await submitForm(agent, asked.headers.location, '/login', {
      email: account.email,
      password: account.password,
      next: '/app/taxpayers?x=1',
    });
    expect(back.headers.location).toBe('/app/taxpayers?x=1');

    const other = browser(t.app);
    const elsewhere = await submitForm(other, '/login', '/login', {
      email: account.email,
      password: account.password,
      next: '//evil.example/app',
    });
    expect(elsewhere.headers.location).toBe('/app');
  });

  it('signs out: the session is deleted, so the same cookie no longer opens any page', async () => {
    const account = await registerAccount(t.app);
    const agent = await signIn(t.app, account.email, account.password);
    const before = await t.db.db.select().from(webSessions);
    const page = await agent.get('/app').expect(200);
    const cookie = (await agent.jar.getCookie('vf_session', { domain: '127.0.0.1', path: '/', secure: false, script: false }))?.value;
    const out = await agent
      .post('/logout')
      .type('form')
      .send({ _csrf: csrfTokenIn(page.text) });
    expect(out.status).toBe(303);
    expect(out.headers.location).toBe('/login?signed_out=1');
    expect((await t.db.db.select().from(webSessions)).length).toBe(before.length - 1);
    // Replaying the old cookie by hand: refused.
    const replay = await request(t.app).get('/app').set('Cookie', `vf_session=${cookie}`);
    expect(replay.status).toBe(303);
    expect(replay.headers.location).toMatch(/^\/login/);
  });
});

describe('login rate limiting', () => {
  it('pauses sign-in for an email from one address after 5 failures, even with the right password', async () => {
    const account = await registerAccount(t.app);
    const agent = browser(t.app);
    const attempt = (password: string, ip: string) =>
      agent.get('/login').then((page) =>
        agent
          .post('/login')
          .set('X-Forwarded-For', ip)
          .type('form')
          .send({ _csrf: csrfTokenIn(page.text), email: account.email, password }),
      );
    for (let i = 1; i <= 4; i++) expect((await attempt('wrong password', '203.0.113.7')).status).toBe(401);
    const fifth = await attempt('wrong password', '203.0.113.7');
    expect(fifth.status).toBe(429);
    expect(fifth.text).toContain('Too many failed sign-in attempts for this email from your network');

    const right = await attempt(account.password, '203.0.113.7');
    expect(right.status).toBe(429);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(800);

    // Someone failing on purpose elsewhere cannot lock the owner out from their own address.
    expect((await attempt(account.password, '198.51.100.20')).status).toBe(303);
  });
});
