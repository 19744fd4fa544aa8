import { createTestDatabase, type TestDatabase } from '@vf/db/testing';
import { accountStore } from '@vf/db';
import { createApiKeyAccounts } from './api-key-accounts';
import { issueApiKey } from './api-key';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.destroy();
});

async function account(): Promise<{ id: string; digest: string }> {
  const key = issueApiKey();
  const id = await accountStore.insert(t.db, {
    name: 'Cuenta',
    email: `${key.hint}-${Math.random()}@example.test`,
    passwordHash: 'x',
    apiKeyDigest: key.digest,
    apiKeyHint: key.hint,
    planId: 'free',
  });
  return { id, digest: key.digest };
}

test('keys looked up together go in one query, each answered with its own account', async () => {
  const accounts = await Promise.all(Array.from({ length: 20 }, account));
  const query = jest.spyOn(t.db.$client, 'query');
  try {
    const lookups = createApiKeyAccounts(t.db);
    const found = await Promise.all([...accounts.map((a) => lookups.find(a.digest)), lookups.find('0'.repeat(64))]);
    expect(found.map((a) => a?.id)).toEqual([...accounts.map((a) => a.id), undefined]);
    expect(query.mock.calls.filter(([config]) => (config as { name?: string }).name === 'vf_accounts_by_key_digests')).toHaveLength(1);
  } finally {
    query.mockRestore();
  }
});

test('nothing is remembered: a replaced key stops matching with the next lookup', async () => {
  const a = await account();
  const lookups = createApiKeyAccounts(t.db);
  expect((await lookups.find(a.digest))?.id).toBe(a.id);
  const next = issueApiKey();
  await accountStore.replaceKey(t.db, a.id, { apiKeyDigest: next.digest, apiKeyHint: next.hint });
  expect(await lookups.find(a.digest)).toBeUndefined();
  expect((await lookups.find(next.digest))?.id).toBe(a.id);
});
