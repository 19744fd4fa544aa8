import IORedis from 'ioredis';
import request from 'supertest';
import { csrfTokenIn } from '@vf/dashboard/testing';
import { registerAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';
import { createPasswordHasher } from './password-hasher';

let t: TestApp;
beforeAll(async () => {
  // Each test speaks from its own address (X-Forwarded-For), so the per-address limit of one does not spill into the next.
  t = await createTestApp({ config: { trustProxy: true } });
});
afterAll(() => t.close());

let address = '';
let tests = 0;
beforeEach(() => {
  address = `198.51.100.${++tests}`;
});
const regenerate = (email: string, password: string) =>
  request(t.app).post('/api/v1/auth/regenerate-key').set('X-Forwarded-For', address).send({ email, password });
const statuses = (responses: request.Response[]) =>
  responses.reduce<Record<number, number>>((counts, r) => ({ ...counts, [r.status]: (counts[r.status] ?? 0) + 1 }), {});

test('a concurrent burst of wrong passwords gets exactly the limit of checks, and the right password inside a later burst does not get in', async () => {
  const account = await registerAccount(t.app);
  const burst = await Promise.all(Array.from({ length: 40 }, () => regenerate(account.email, 'wrong password!')));
  expect(statuses(burst)).toEqual({ 401: 5, 429: 35 });
  const refused = burst.find((r) => r.status === 429)!;
  expect(refused.body.code).toBe('too_many_attempts');
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(800);

  const withRight = await Promise.all([
    ...Array.from({ length: 10 }, () => regenerate(account.email, 'wrong password!')),
    regenerate(account.email, account.password),
  ]);
  expect(statuses(withRight)).toEqual({ 429: 11 });
  // The key was not rotated by anyone.
  await request(t.app).get('/api/v1/account').set(account.auth).expect(200);
});

test('an account paused on the API is paused on the dashboard sign-in too, right password included', async () => {
  const account = await registerAccount(t.app);
  for (let i = 0; i < 5; i++) await regenerate(account.email, 'wrong password!').expect(401);
  const agent = request.agent(t.app);
  const page = await agent.get('/login').expect(200);
  const res = await agent
    .post('/login')
    .set('X-Forwarded-For', address)
    .type('form')
    .send({ _csrf: csrfTokenIn(page.text), email: account.email, password: account.password });
  expect(res.status).toBe(429);
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
});

test('300 wrong passwords from other addresses, three times the ceiling of the account, do not keep the owner out; they slow each address to one guess', async () => {
  const account = await registerAccount(t.app);
  const from = (ip: string, password: string) =>
    request(t.app).post('/api/v1/auth/regenerate-key').set('X-Forwarded-For', ip).send({ email: account.email, password });
  const strangers: request.Response[] = [];
  // In waves of 50: the password-check pool's waiting room (64) is not what this test is about. Three times the
  // ceiling (100) puts two thirds of the guesses past it, each wave as concurrent as any; more waves add time,
  // not cases.
  for (let wave = 0; wave < 6; wave++) {
    strangers.push(...(await Promise.all(Array.from({ length: 50 }, (_, i) => from(`2001:db8::${wave}:${i}`, 'wrong password!')))));
  }
  // Every address had its one check: the account's ceiling (100) narrows what an address may try, it refuses nobody.
  expect(statuses(strangers)).toEqual({ 401: 300 });

  // Over the ceiling, a burst from one address gets exactly one check, and the right password within it does not get in.
  const burst = await Promise.all(Array.from({ length: 10 }, () => from('2001:db8::bad', 'wrong password!')));
  expect(statuses(burst)).toEqual({ 401: 1, 429: 9 });
  expect((await from('2001:db8::bad', account.password)).status).toBe(429);

  // The owner, from their own address, gets in at the first try.
  const owner = await from(address, account.password).expect(200);
  expect(owner.body.data.api_key).toMatch(/^vfk_/);
});

test('a right password gives its attempt back: signing in often never pauses the owner', async () => {
  const account = await registerAccount(t.app);
  for (let i = 0; i < 8; i++) {
    await regenerate(account.email, account.password).expect(200);
  }
});

test('registrations are limited per client address', async () => {
  const limited = await createTestApp({ throttleLimits: { registrationsFromAddress: { points: 2, durationSeconds: 60 } } });
  try {
    await registerAccount(limited.app);
    await registerAccount(limited.app);
    const third = await request(limited.app)
      .post('/api/v1/auth/register')
      .send({ name: 'Three', email: 'three@example.test', password: 'a long enough password' });
    expect(third.status).toBe(429);
    expect(third.body.code).toBe('too_many_attempts');
  } finally {
    await limited.close();
  }
});

test('with Redis down, sign-in, key regeneration and registration answer 503 with Retry-After, never 500', async () => {
  // The API's producer connection settings: no offline queue, so commands fail at once while Redis is away.
  const deadRedis = new IORedis('redis://127.0.0.1:1', { maxRetriesPerRequest: 1, enableOfflineQueue: false, retryStrategy: () => 1_000 });
  deadRedis.on('error', () => undefined);
  const down = await createTestApp({ redis: deadRedis });
  try {
    const agent = request.agent(down.app);
    const page = await agent.get('/login').expect(200);
    const signIn = await agent
      .post('/login')
      .type('form')
      .send({ _csrf: csrfTokenIn(page.text), email: 'someone@example.test', password: 'whatever password' });
    expect(signIn.status).toBe(503);
    expect(signIn.headers['retry-after']).toBeDefined();
    for (const res of [
      await request(down.app).post('/api/v1/auth/regenerate-key').send({ email: 'someone@example.test', password: 'whatever password' }),
      await request(down.app)
        .post('/api/v1/auth/register')
        .send({ name: 'N', email: 'n@example.test', password: 'a long enough password' }),
    ]) {
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 503, code: 'service_unavailable' });
      expect(res.headers['retry-after']).toBeDefined();
    }
  } finally {
    deadRedis.disconnect();
    await down.close();
  }
});

test('a flood of password checks waits in its own pool: a registration hash finishes long before the flood does', async () => {
  const hasher = createPasswordHasher(8, { concurrency: 1, maxQueuedChecks: 100 });
  const stored = await hasher.hash('the real password');
  const finished: string[] = [];
  const flood = Array.from({ length: 20 }, (_, i) => hasher.verify('a wrong guess', stored).then(() => finished.push(`check ${i}`)));
  const registration = hasher.hash('a new password').then(() => finished.push('registration'));
  await Promise.all([...flood, registration]);
  expect(finished.indexOf('registration')).toBeLessThan(5);
});

test('a flood beyond the waiting room is refused at once with 503 instead of queueing without end', async () => {
  const hasher = createPasswordHasher(4, { concurrency: 1, maxQueuedChecks: 3 });
  const results = await Promise.allSettled(Array.from({ length: 10 }, () => hasher.verify('guess', undefined)));
  const refused = results.filter((r) => r.status === 'rejected');
  expect(refused.length).toBeGreaterThan(0);
  expect((refused[0] as PromiseRejectedResult).reason).toMatchObject({ code: 'service_unavailable' });
});
