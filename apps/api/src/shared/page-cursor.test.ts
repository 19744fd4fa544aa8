import { decodeCursor, encodeCursor } from './page-cursor';

const id = '3f1c2a4e-8a0b-4c7e-9f51-1d2e3f4a5b6c';
const forge = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

test('a cursor round-trips PostgreSQL timestamps with microseconds and offsets', () => {
  for (const createdAt of ['2025-01-01 10:00:00.123456+00', '2025-06-30 23:59:59+02', '2025-03-30 01:00:00.5+05:30']) {
    expect(decodeCursor(encodeCursor({ createdAt, id }))).toEqual({ createdAt, id });
  }
});

test('forged or damaged cursors are refused before they reach SQL', () => {
  for (const cursor of [
    'not-base64-json',
    forge({ createdAt: '2025-01-01 10:00:00+00', id }),
    forge(['2025-13-45 99:00:00+00', id]),
    forge(['2025-02-30 10:00:00+00', id]),
    forge(['2025-04-31 10:00:00.5+02', id]),
    forge(["2025-01-01 10:00:00+00'); DROP TABLE invoices; --", id]),
    forge(['2025-01-01 10:00:00+00', 'not-a-uuid']),
    forge(['2025-01-01 10:00:00+00', id, 'extra']),
  ]) {
    expect(decodeCursor(cursor)).toBeUndefined();
  }
});
