import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeTestCertificates } from '@vf/certificates/testing';
import { ensureMasterKeyFile } from './master-key-file';
import { writePrivateFile } from './private-files';

// Under umask 000 every mode asked of mkdir and open is granted as is: the secrets' files and folders must still be
// their owner's only. (This file's process only: jest runs each test file in a worker of its own.)
let dir: string;
let umask: number;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'vf-private-'));
  umask = process.umask(0o000);
});
afterEach(() => {
  process.umask(umask);
  rmSync(dir, { recursive: true, force: true });
});

const mode = (file: string) => (statSync(file).mode & 0o777).toString(8);

test('the master key and every folder made for it are 0600 and 0700 under umask 000', () => {
  const file = path.join(dir, 'var', 'keys', 'master-key');
  ensureMasterKeyFile(file);
  expect({ var: mode(path.join(dir, 'var')), keys: mode(path.dirname(file)), key: mode(file) }).toEqual({
    var: '700',
    keys: '700',
    key: '600',
  });
  // A rotation stages the next key beside it the same way.
  ensureMasterKeyFile(`${file}.next`);
  expect(mode(`${file}.next`)).toBe('600');
});

test('a secret written over an existing world-readable file becomes 0600; an existing folder is left as it was', () => {
  const file = path.join(dir, 'admin-password.txt');
  writeFileSync(file, 'old');
  chmodSync(file, 0o666);
  writePrivateFile(file, 'new');
  expect(mode(file)).toBe('600');
  expect(mode(dir)).toBe('700');
});

test("the test certificates' folder, private keys, PKCS#12 files and passwords are their owner's only under umask 000", () => {
  const certs = path.join(dir, 'var', 'certs');
  writeTestCertificates(certs, { taxpayerNifs: ['89890001K'] });
  expect(mode(path.join(dir, 'var'))).toBe('700');
  expect(mode(certs)).toBe('700');
  for (const secret of ['ca-key.pem', 'sim-server-key.pem', 'platform.p12', 'taxpayer-89890001K.p12', 'passwords.json'])
    expect({ secret, mode: mode(path.join(certs, secret)) }).toEqual({ secret, mode: '600' });
  expect(mode(path.join(certs, 'ca.pem'))).toBe('644');
});
