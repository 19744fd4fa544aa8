import { sql } from 'drizzle-orm';
import { createTestDatabase, type TestDatabase } from '../testing';
import { literalText } from './literal-text';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.destroy());

test('a text written as a literal reads back as itself, quotes and backslashes included, whatever standard_conforming_strings says', async () => {
  const texts = ["O'Brien", 'a\\b', "\\'; DROP TABLE invoices; --", '50%_x', 'ñandú €'];
  for (const conforming of ['on', 'off']) {
    // One connection for the setting and the reads: a transaction of its own.
    await t.db.transaction(async (tx) => {
      await tx.execute(sql.raw(`SET LOCAL standard_conforming_strings = ${conforming}`));
      for (const text of texts) {
        const { rows } = await tx.execute<{ v: string }>(sql`SELECT ${literalText(text)} AS v`);
        expect(rows[0].v).toBe(text);
      }
    });
  }
  expect(() => literalText('a\0b')).toThrow(RangeError);
});
