import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import forge from 'node-forge';
import { makePrivateDir, writePrivateFile } from '@vf/config';
import { createTestCa, issueCertificate, toPkcs12, type IssuedCertificate } from './test-pki';

export const DEFAULT_PLATFORM_NIF = 'B85905495';
export const DEFAULT_TAXPAYER_NIFS = ['89890001K', '89890002E', 'A86018322'];

export interface WriteTestCertificatesOptions {
  /** Regenerate everything, even files that exist. */
  force?: boolean;
  platformNif?: string;
  taxpayerNifs?: string[];
  /** Names the simulator is reached by besides 127.0.0.1 and localhost (a container's service name, say). */
  serverHosts?: string[];
}

export interface WrittenTestCertificates {
  dir: string;
  written: string[];
  kept: string[];
}

export const TEST_CERT_FILES = {
  ca: 'ca.pem',
  caKey: 'ca-key.pem',
  simServer: 'sim-server.pem',
  simServerKey: 'sim-server-key.pem',
  platform: 'platform.p12',
  passwords: 'passwords.json',
  taxpayer: (nif: string) => `taxpayer-${nif}.p12`,
} as const;

function loadCa(dir: string): IssuedCertificate {
  const certPem = readFileSync(join(dir, TEST_CERT_FILES.ca), 'utf8');
  const keyPem = readFileSync(join(dir, TEST_CERT_FILES.caKey), 'utf8');
  return {
    certPem,
    keyPem,
    cert: forge.pki.certificateFromPem(certPem),
    key: forge.pki.privateKeyFromPem(keyPem) as forge.pki.rsa.PrivateKey,
  };
}

/**
 * Writes throwaway test credentials (CA, simulator server certificate, platform and taxpayer PKCS#12s with
 * their generated passwords in passwords.json). Keeps what exists unless `force`; a new CA forces every
 * certificate to be reissued, because the old ones would no longer chain.
 */
export function writeTestCertificates(dir: string, opts: WriteTestCertificatesOptions = {}): WrittenTestCertificates {
  makePrivateDir(dir);
  const path = (name: string) => join(dir, name);
  const written: string[] = [];
  const kept: string[] = [];

  const keepCa = !opts.force && existsSync(path(TEST_CERT_FILES.ca)) && existsSync(path(TEST_CERT_FILES.caKey));
  const ca = keepCa ? loadCa(dir) : createTestCa();
  const force = opts.force || !keepCa;
  const write = (name: string, content: string | Buffer, secret: boolean) => {
    if (secret) writePrivateFile(path(name), content);
    else writeFileSync(path(name), content, { mode: 0o644 });
    written.push(name);
  };
  if (keepCa) kept.push(TEST_CERT_FILES.ca, TEST_CERT_FILES.caKey);
  else {
    write(TEST_CERT_FILES.ca, ca.certPem, false);
    write(TEST_CERT_FILES.caKey, ca.keyPem, true);
  }

  // A group of files (cert + key, or a PKCS#12 + its password) is reissued as a whole when any part is missing.
  const needs = (...names: string[]) => {
    if (force || names.some((name) => !existsSync(path(name)))) return true;
    kept.push(...names);
    return false;
  };

  if (needs(TEST_CERT_FILES.simServer, TEST_CERT_FILES.simServerKey)) {
    const server = issueCertificate(ca, {
      commonName: 'VERI*FACTU SIMULATOR (not AEAT)',
      serverHosts: ['127.0.0.1', 'localhost', '::1', ...(opts.serverHosts ?? [])],
    });
    write(TEST_CERT_FILES.simServer, server.certPem, false);
    write(TEST_CERT_FILES.simServerKey, server.keyPem, true);
  }

  const passwordsPath = path(TEST_CERT_FILES.passwords);
  const passwords: Record<string, string> = !force && existsSync(passwordsPath) ? JSON.parse(readFileSync(passwordsPath, 'utf8')) : {};
  let passwordsChanged = false;
  const writeP12 = (name: string, commonName: string, nif: string) => {
    if (passwords[name] !== undefined && !needs(name)) return;
    const password = randomBytes(12).toString('base64url');
    write(name, toPkcs12(issueCertificate(ca, { commonName, nif }), password, ca), true);
    passwords[name] = password;
    passwordsChanged = true;
  };
  writeP12(TEST_CERT_FILES.platform, 'PLATAFORMA DE PRUEBAS SL', opts.platformNif ?? DEFAULT_PLATFORM_NIF);
  for (const nif of opts.taxpayerNifs ?? DEFAULT_TAXPAYER_NIFS) {
    writeP12(TEST_CERT_FILES.taxpayer(nif), `CONTRIBUYENTE DE PRUEBAS ${nif}`, nif);
  }
  if (passwordsChanged) write(TEST_CERT_FILES.passwords, `${JSON.stringify(passwords, null, 2)}\n`, true);
  else kept.push(TEST_CERT_FILES.passwords);

  return { dir, written, kept };
}
