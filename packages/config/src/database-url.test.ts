import { parseDatabaseUrl } from './database-url';
import { loadConfig } from './load-config';

const KEY = Buffer.alloc(32, 1).toString('base64');

test('a multi-host DATABASE_URL gives each server a URL of its own with the same user, database and options', () => {
  const url = 'postgres://vf:s%40cret@10.0.0.1:5433,db2,[::1]:5434/verifactu?target_session_attrs=read-write&sslmode=require';
  expect(parseDatabaseUrl(url)).toEqual({
    targetSessionAttrs: 'read-write',
    hosts: [
      { host: '10.0.0.1', port: 5433, url: 'postgres://vf:s%40cret@10.0.0.1:5433/verifactu?sslmode=require' },
      { host: 'db2', port: 5432, url: 'postgres://vf:s%40cret@db2:5432/verifactu?sslmode=require' },
      { host: '::1', port: 5434, url: 'postgres://vf:s%40cret@[::1]:5434/verifactu?sslmode=require' },
    ],
  });
  expect(parseDatabaseUrl('postgresql://127.0.0.1/verifactu')).toMatchObject({ targetSessionAttrs: 'any', hosts: [{ port: 5432 }] });
  expect(loadConfig({ MASTER_KEY: KEY, DATABASE_URL: url }).databaseUrl).toBe(url);
});

test('a DATABASE_URL that names no usable host, or asks for a session kind the service cannot keep, stops the start', () => {
  expect(() => loadConfig({ MASTER_KEY: KEY, DATABASE_URL: 'mysql://db/verifactu' })).toThrow(/DATABASE_URL" must be a postgres/);
  expect(() => loadConfig({ MASTER_KEY: KEY, DATABASE_URL: 'postgres://a:5432,:5433/db' })).toThrow(/host ":5433"/);
  expect(() => loadConfig({ MASTER_KEY: KEY, DATABASE_URL: 'postgres://a:99999/db' })).toThrow(/port 99999/);
  expect(() => loadConfig({ MASTER_KEY: KEY, DATABASE_URL: 'postgres://a,b/db?target_session_attrs=standby' })).toThrow(
    /target_session_attrs must be read-write or any/,
  );
});
