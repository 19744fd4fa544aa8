import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { createTestDatabase, type TestDatabase } from '@vf/db/testing';
import { decryptSecret, encryptSecret, envelopeKeyId, masterKeyId } from './encrypt-secret';
import { rotateStoredSecrets } from './rotate-stored-secrets';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.destroy());

test('a key rotation re-seals webhook signing secrets and kept idempotent answers too', async () => {
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);
  const secret = Buffer.from('whsec_c2VjcmV0');
  const answer = Buffer.from('{"data":{"secret":"whsec_c2VjcmV0"}}');
  const { rows } = await t.db.execute<{ id: string }>(sql`
    INSERT INTO accounts (name, email, password_hash, api_key_digest, api_key_hint, plan_id)
    VALUES ('n', ${randomUUID() + '@x.es'}, 'h', ${randomUUID()}, 'vfk_', 'free') RETURNING id`);
  const accountId = rows[0].id;
  await t.db.execute(sql`INSERT INTO webhook_endpoints (account_id, url, events, secret)
    VALUES (${accountId}, 'https://h.example.com', '["invoice.accepted"]', ${encryptSecret(oldKey, secret)})`);
  await t.db
    .execute(sql`INSERT INTO idempotency_keys (account_id, key, fingerprint, state, owner, locked_until, expires_at, response_status, response_body)
    VALUES (${accountId}, 'k1', ${'0'.repeat(64)}, 'completed', ${randomUUID()}, now(), now() + interval '1 day', 201, ${encryptSecret(oldKey, answer).toString('base64')})`);

  const result = await rotateStoredSecrets(t.pool, [oldKey], newKey);
  expect(result).toMatchObject({ webhookSecrets: 1, idempotentAnswers: 1 });

  const endpoint = (await t.db.execute<{ secret: Buffer }>(sql`SELECT secret FROM webhook_endpoints`)).rows[0];
  expect(envelopeKeyId(endpoint.secret)).toBe(masterKeyId(newKey));
  expect(decryptSecret(newKey, endpoint.secret).equals(secret)).toBe(true);
  const kept = (await t.db.execute<{ body: string }>(sql`SELECT response_body AS body FROM idempotency_keys`)).rows[0];
  expect(decryptSecret(newKey, Buffer.from(kept.body, 'base64')).equals(answer)).toBe(true);
  // Run again: nothing left to move.
  expect(await rotateStoredSecrets(t.pool, [newKey], newKey)).toMatchObject({ webhookSecrets: 0, idempotentAnswers: 0 });
});
