import { ConfigError, loadConfig } from './load-config';

const KEY = Buffer.alloc(32, 1).toString('base64');

test('local defaults: simulator mode, sandbox-safe settings, no admin board', () => {
  const c = loadConfig({});
  expect(c).toMatchObject({ env: 'development', port: 3000, trustProxy: false, authority: { mode: 'simulator', useSealHosts: false } });
  expect(c.masterKey).toHaveLength(32);
  expect(c.admin).toBeUndefined();
  expect(c.platformCertificate).toBeUndefined();
});

test('refuses to start in production without a master key', () => {
  expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/MASTER_KEY is required in production/);
  expect(loadConfig({ NODE_ENV: 'production', MASTER_KEY: KEY }).masterKey).toEqual(Buffer.alloc(32, 1));
});

test('a master key of the wrong length is refused', () => {
  expect(() => loadConfig({ MASTER_KEY: Buffer.alloc(16).toString('base64') })).toThrow(ConfigError);
});

test('lists every problem at once, and needs both halves of paired settings', () => {
  let message = '';
  try {
    loadConfig({ PORT: 'eighty', AUTHORITY_MODE: 'production', ADMIN_USER: 'ops', PLATFORM_CERT_PATH: '/x.p12' });
  } catch (err) {
    message = (err as Error).message;
  }
  expect(message).toMatch(/PORT/);
  expect(message).toMatch(/AUTHORITY_MODE/);
  expect(message).toMatch(/ADMIN_PASSWORD/);
  expect(message).toMatch(/PLATFORM_CERT_PASSWORD/);
});

test('aeat mode and proxy settings are read as given', () => {
  const c = loadConfig({ AUTHORITY_MODE: 'aeat', AEAT_SEAL_HOSTS: 'true', TRUST_PROXY: '1', ADMIN_USER: 'ops', ADMIN_PASSWORD: 'a long admin password' });
  expect(c.authority).toMatchObject({ mode: 'aeat', useSealHosts: true });
  expect(c.trustProxy).toBe(1);
  expect(c.admin).toEqual({ user: 'ops', password: 'a long admin password' });
});

test('retries have no attempt limit: an hourly cap at most, and a day before a waiting record shows error', () => {
  expect(loadConfig({}).sender).toMatchObject({ backoffBaseMs: 2_000, backoffMaxMs: 3_600_000, errorAfterSeconds: 86_400 });
  expect(loadConfig({}).sender).not.toHaveProperty('maxAttempts');
  expect(() => loadConfig({ SENDER_BACKOFF_MAX_MS: '3600001' })).toThrow(/SENDER_BACKOFF_MAX_MS/);
  expect(loadConfig({ SENDER_BACKOFF_MAX_MS: '600000', SENDER_ERROR_AFTER_SECONDS: '3600' }).sender).toMatchObject({ backoffMaxMs: 600_000, errorAfterSeconds: 3_600 });
});
