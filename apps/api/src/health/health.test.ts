import IORedis from 'ioredis';
import request from 'supertest';
import { createDatabase } from '@vf/db';
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
});

it('is 503 naming PostgreSQL when the database is unreachable', async () => {
  const deadDb = createDatabase(CLOSED_PORT_PG);
  const t = await createTestApp({ db: deadDb.db, healthTimeoutMs: 1_000 });
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
  const t = await createTestApp({ redis: deadRedis, healthTimeoutMs: 500 });
  try {
    const res = await request(t.app).get('/api/v1/health').expect(503);
    expect(res.body).toEqual({ status: 'unavailable', checks: { database: 'ok', redis: 'unavailable' } });
  } finally {
    deadRedis.disconnect();
    await t.close();
  }
});
