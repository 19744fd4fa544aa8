import { createTestDatabase, type TestDatabase } from '@vf/db/testing';
import { storageFootprint } from './storage-footprint';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.destroy());

describe('storageFootprint', () => {
  it('has no per-record figure before any record exists, but counts the empty tables and indexes', async () => {
    const footprint = await storageFootprint(database.pool, 'api-alone');
    expect(footprint).toMatchObject({ stack: 'api-alone', records: 0, bytesPerRecord: null });
    expect(footprint.bytes).toBeGreaterThan(0);
  });
});
