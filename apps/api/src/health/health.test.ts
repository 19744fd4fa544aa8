import IORedis from 'ioredis';
import pino from 'pino';
import request from 'supertest';
import { createDatabase } from '@vf/db';
import { Readiness } from '@vf/lifecycle';
import { createApp } from '../create-app';
import { createTestApp, type TestApp } from '../testing/test-app';

// Nothing listens on port 1: connections are refused at once.
const CLOSED_PORT_PG = 'postgres://postgres@127.0.0.1:1/nothing';
const CLOSED_PORT_REDIS = 'redis://127.0.0.1:1';

describe('GET /api/v1/health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('is 200 without authentication when PostgreSQL and Redis answer', async () => {
    const res = await request(t.app).get('/api/v1/health').expect(200);
    expect(res.body).toEqual({ status: 'ok', checks: { database: 'ok', redis: 'ok' } });
  });

  it('/health/live and /health/ready are 200 when PostgreSQL (with the current schema) and Redis answer', async () => {
    await t.redis.ping(); // connected: readiness reports the connection as it is, not as it will be
    expect((await request(t.app).get('/health/live').expect(200)).body).toEqual({ status: 'ok' });
    const ready = await request(t.app).get('/health/ready').expect(200);
    expect(ready.headers['cache-control']).toBe('no-store');
    expect(ready.body).toEqual({ status: 'ready', checks: { database: 'ok', schema: 'current', redis: 'ok' } });
    await request(t.app).post('/health/ready').expect(405);
  });
});

it('is 503 naming PostgreSQL when the database is unreachable', async () => {
  const deadDb = createDatabase(CLOSED_PORT_PG);
  // The production bound (main.ts): the live dependency must answer within it, also on a loaded machine.
  const t = await createTestApp({ db: deadDb.db, healthTimeoutMs: 2_000 });
  try {
    const res = await request(t.app).get('/api/v1/health').expect(503);
    expect(res.body).toEqual({ status: 'unavailable', checks: { database: 'unavailable', redis: 'ok' } });
  } finally {
    await deadDb.close();
    await t.close();
  }
});

it('is 503 naming Redis when Redis is unreachable', async () => {
  const deadRedis = new IORedis(CLOSED_PORT_REDIS, { maxRetriesPerRequest: 1, retryStrategy: () => 1_000 });
  deadRedis.on('error', () => undefined);
  const t = await createTestApp({ redis: deadRedis, healthTimeoutMs: 2_000 });
  try {
    const res = await request(t.app).get('/api/v1/health').expect(503);
    expect(res.body).toEqual({ status: 'unavailable', checks: { database: 'ok', redis: 'unavailable' } });
  } finally {
    deadRedis.disconnect();
    await t.close();
  }
});

describe('GET /health/live and /health/ready', () => {
  it('without PostgreSQL: alive, not ready', async () => {
    const deadDb = createDatabase(CLOSED_PORT_PG);
    // The production bound (main.ts): the live dependency must answer within it, also on a loaded machine.
    const t = await createTestApp({ db: deadDb.db, healthTimeoutMs: 2_000 });
    try {
      await t.redis.ping();
      await request(t.app).get('/health/live').expect(200);
      const ready = await request(t.app).get('/health/ready').expect(503);
      expect(ready.body).toEqual({ status: 'unavailable', checks: { database: 'unavailable', schema: 'unknown', redis: 'ok' } });
    } finally {
      await deadDb.close();
      await t.close();
    }
  });

  it('without Redis: still ready, since registrations do not need it; Redis is reported', async () => {
    const deadRedis = new IORedis(CLOSED_PORT_REDIS, { maxRetriesPerRequest: 1, retryStrategy: () => 1_000 });
    deadRedis.on('error', () => undefined);
    const t = await createTestApp({ redis: deadRedis, healthTimeoutMs: 2_000 });
    try {
      const ready = await request(t.app).get('/health/ready').expect(200);
      expect(ready.body).toEqual({ status: 'ready', checks: { database: 'ok', schema: 'current', redis: 'unavailable' } });
    } finally {
      deadRedis.disconnect();
      await t.close();
    }
  });

  it('while the process waits for its schema, everything but the health checks answers 503 with Retry-After', async () => {
    const t = await createTestApp();
    // A process that has not yet found the current schema (main.ts starts every API process so).
    const readiness = new Readiness(async () => ({ healthy: false, checks: { database: 'ok', schema: 'outdated', redis: 'ok' } }));
    const starting = createApp({
      db: t.db.db,
      redis: t.redis,
      queues: t.queues,
      logger: pino({ level: 'silent' }),
      config: { masterKey: t.masterKey, certificateDir: t.certificateDir, admin: undefined, queuePrefix: 'unused', passwordHashCost: 4 },
      readiness,
    });
    try {
      await request(starting).get('/health/live').expect(200);
      expect((await request(starting).get('/health/ready').expect(503)).body).toMatchObject({ status: 'starting' });
      expect((await request(starting).get('/api/v1/health').expect(503)).body.status).toBe('unavailable');
      for (const path of ['/api/v1/account', '/login', '/api/v1/openapi.json']) {
        const res = await request(starting).get(path).expect(503);
        expect({ path, code: res.body.code, retryAfter: res.headers['retry-after'] }).toEqual({
          path,
          code: 'service_unavailable',
          retryAfter: '5',
        });
      }
      readiness.serving();
      await request(starting).get('/api/v1/openapi.json').expect(200);
    } finally {
      await t.close();
    }
  });
});
