import { execFile } from 'node:child_process';
import { createCipheriv, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { createTestDatabase, type TestDatabase } from '@vf/db/testing';
import { decryptSecret, encryptSecret, envelopeKeyId, masterKeyId } from './encrypt-secret';

const root = path.resolve(__dirname, '../../..');
const run = promisify(execFile);

let t: TestDatabase;
let dir: string;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.destroy());
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'vf-rotate-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

// Written before envelopes carried a key id: version 1 | IV | tag | ciphertext.
function legacyEnvelope(key: Buffer, plain: Buffer): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([Buffer.from([1]), iv, cipher.getAuthTag(), ciphertext]);
}

async function taxpayerWithSecrets(p12: Buffer, password: Buffer): Promise<string> {
  const r = await t.db.execute(sql`
    WITH a AS (INSERT INTO accounts (name, email, password_hash, api_key_digest, api_key_hint, plan_id)
               VALUES ('n', ${randomUUID() + '@x.es'}, 'h', ${randomUUID()}, 'vfk_', 'free') RETURNING id)
    INSERT INTO taxpayers (account_id, nif, name, certificate_p12, certificate_password)
    SELECT id, '89890001K', 'T', ${p12}, ${password} FROM a RETURNING id`);
  return (r.rows[0] as { id: string }).id;
}

async function secretsOf(id: string): Promise<[Buffer, Buffer]> {
  const r = await t.db.execute(sql`SELECT certificate_p12, certificate_password FROM taxpayers WHERE id = ${id}`);
  const row = r.rows[0] as { certificate_p12: Buffer; certificate_password: Buffer };
  return [row.certificate_p12, row.certificate_password];
}

const rotate = (keyFile: string) =>
  run(process.execPath, [path.join(root, 'scripts/dist/rotate-master-key.js')], {
    cwd: root,
    env: { ...withoutMasterKey(process.env), NODE_ENV: 'test', DATABASE_URL: t.url, MASTER_KEY_FILE: keyFile, LOG_LEVEL: 'info' },
  });

function withoutMasterKey(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { MASTER_KEY: _unused, ...rest } = env;
  return rest;
}

test('npm run rotate-master-key moves every stored secret to a new key, keeps the old key file, and prints no key', async () => {
  const oldKey = randomBytes(32);
  const keyFile = path.join(dir, 'master-key');
  writeFileSync(keyFile, `${oldKey.toString('base64')}\n`, { mode: 0o600 });
  const p12 = Buffer.from('pkcs12 bytes');
  const password = Buffer.from('p12 password');
  const current = await taxpayerWithSecrets(encryptSecret(oldKey, p12), encryptSecret(oldKey, password));
  const legacy = await taxpayerWithSecrets(legacyEnvelope(oldKey, p12), legacyEnvelope(oldKey, password));

  const { stdout, stderr } = await rotate(keyFile);

  const newKey = Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64');
  expect(newKey).toHaveLength(32);
  expect(newKey.equals(oldKey)).toBe(false);
  expect(readFileSync(`${keyFile}.previous`, 'utf8').trim()).toBe(oldKey.toString('base64'));
  for (const f of [keyFile, `${keyFile}.previous`]) expect(statSync(f).mode & 0o777).toBe(0o600);
  for (const id of [current, legacy]) {
    const [sealedP12, sealedPassword] = await secretsOf(id);
    expect(envelopeKeyId(sealedP12)).toBe(masterKeyId(newKey));
    expect(decryptSecret(newKey, sealedP12).equals(p12)).toBe(true);
    expect(decryptSecret(newKey, sealedPassword).equals(password)).toBe(true);
    expect(() => decryptSecret(oldKey, sealedP12)).toThrow(/authentication/);
  }
  const output = stdout + stderr;
  expect(JSON.parse(output.trim().split('\n')[0])).toMatchObject({ rotated: 2, unchanged: 0, to: masterKeyId(newKey) });
  for (const secret of [oldKey.toString('base64'), newKey.toString('base64'), 'p12 password']) expect(output).not.toContain(secret);

  // A second rotation starts from the new key and leaves nothing behind.
  await rotate(keyFile);
  const newest = Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64');
  expect(decryptSecret(newest, (await secretsOf(legacy))[1]).equals(password)).toBe(true);
});
