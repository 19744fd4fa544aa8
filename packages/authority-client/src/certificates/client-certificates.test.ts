import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encryptSecret } from '@vf/certificates';
import { createTestCa, issueCertificate, toPkcs12 } from '@vf/certificates/testing';
import type { SenderTaxpayer } from '@vf/db';
import { CertificateUnusableError, ClientCertificates } from './client-certificates';

const masterKey = randomBytes(32);
const ca = createTestCa();
const holder = issueCertificate(ca, { commonName: 'CONTRIBUYENTE', nif: '89890001K' });

function taxpayer(p12: Buffer | null, password: string | null, updatedAt = new Date('2025-01-01T00:00:00Z')): SenderTaxpayer {
  return {
    id: 'tp-1',
    nif: '89890001K',
    name: 'CONTRIBUYENTE',
    certificateP12: p12 && encryptSecret(masterKey, p12),
    certificatePassword: password === null ? null : encryptSecret(masterKey, Buffer.from(password)),
    updatedAt,
  };
}

let certificates: ClientCertificates;
afterEach(() => certificates?.close());

test("a taxpayer's own certificate gives a reusable agent, renewed when the certificate changes", () => {
  certificates = new ClientCertificates({ masterKey });
  const p12 = toPkcs12(holder, 'pw', ca);
  const first = certificates.forTaxpayer(taxpayer(p12, 'pw'));
  expect(first.mode).toBe('taxpayer');
  expect(first.subject).toContain('89890001K');
  expect(certificates.forTaxpayer(taxpayer(p12, 'pw')).agent).toBe(first.agent);
  expect(certificates.forTaxpayer(taxpayer(p12, 'pw', new Date('2025-02-01T00:00:00Z'))).agent).not.toBe(first.agent);
});

test('without its own certificate and without a platform certificate, nothing can be sent, and the reason says so', () => {
  certificates = new ClientCertificates({ masterKey });
  expect(() => certificates.forTaxpayer(taxpayer(null, null))).toThrow(
    new CertificateUnusableError(
      'certificate_missing',
      'the taxpayer has no certificate and no platform certificate is configured for social-collaborator mode',
    ),
  );
});

test("the platform's own certificate serves what the platform asks on its own behalf, and says when there is none", () => {
  const dir = mkdtempSync(join(tmpdir(), 'vf-platform-'));
  const path = join(dir, 'platform.p12');
  writeFileSync(path, toPkcs12(issueCertificate(ca, { commonName: 'PLATAFORMA', nif: 'B85905495' }), 'pw', ca));
  certificates = new ClientCertificates({ masterKey, platformCertificate: { path, password: 'pw' } });
  const platform = certificates.forPlatform();
  expect(platform.mode).toBe('platform');
  expect(platform.subject).toContain('B85905495');
  expect(certificates.forTaxpayer(taxpayer(null, null)).agent).toBe(platform.agent);
  rmSync(dir, { recursive: true });
  expect(() => new ClientCertificates({ masterKey }).forPlatform()).toThrow(
    new CertificateUnusableError('certificate_missing', 'no platform certificate is configured for social-collaborator mode'),
  );
});

test('a stored certificate that no longer opens is refused with a reason that does not reveal the password', () => {
  certificates = new ClientCertificates({ masterKey });
  const attempt = () => certificates.forTaxpayer(taxpayer(toPkcs12(holder, 'right-one', ca), 'the-wrong-one'));
  expect(attempt).toThrow(CertificateUnusableError);
  expect(attempt).toThrow(/^the taxpayer's certificate cannot be used: the PKCS#12 password is wrong$/);
});

test('a certificate that is not yet valid is refused', () => {
  certificates = new ClientCertificates({ masterKey });
  const future = issueCertificate(ca, {
    commonName: 'FUTURO',
    nif: '89890001K',
    notBefore: new Date(Date.now() + 86_400_000),
    notAfter: new Date(Date.now() + 2 * 86_400_000),
  });
  expect(() => certificates.forTaxpayer(taxpayer(toPkcs12(future, 'pw', ca), 'pw'))).toThrow(/is not valid before/);
});
