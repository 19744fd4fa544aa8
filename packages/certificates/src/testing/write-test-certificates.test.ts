import { mkdtempSync, readFileSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import forge from 'node-forge';
import { certificateNif } from '../certificate-nif';
import { writeTestCertificates } from './write-test-certificates';

const dir = mkdtempSync(join(tmpdir(), 'vf-certs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function openP12(file: string, password: string): forge.pki.Certificate[] {
  const der = readFileSync(join(dir, file)).toString('binary');
  const p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(der), password);
  return (p12.getBags({ bagType: forge.pki.oids.certBag })[forge.pki.oids.certBag] ?? []).map((bag) => bag.cert!);
}

describe('writeTestCertificates', () => {
  it('writes a CA, a simulator server certificate and password-protected PKCS#12s with the holders NIFs', () => {
    writeTestCertificates(dir, { platformNif: 'B85905495', taxpayerNifs: ['89890001K'] });
    const passwords = JSON.parse(readFileSync(join(dir, 'passwords.json'), 'utf8'));
    expect(openP12('platform.p12', passwords['platform.p12']).map(certificateNif)).toContain('B85905495');
    expect(openP12('taxpayer-89890001K.p12', passwords['taxpayer-89890001K.p12']).map(certificateNif)).toContain('89890001K');
    const server = new X509Certificate(readFileSync(join(dir, 'sim-server.pem')));
    expect(server.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(server.checkHost('localhost')).toBe('localhost');
    expect(server.verify(new X509Certificate(readFileSync(join(dir, 'ca.pem'))).publicKey)).toBe(true);
    expect(statSync(join(dir, 'sim-server-key.pem')).mode & 0o077).toBe(0);
  });

  it('keeps existing files, fills in missing ones, and regenerates everything with force', () => {
    const ca = readFileSync(join(dir, 'ca.pem'), 'utf8');
    const platform = readFileSync(join(dir, 'platform.p12'));
    unlinkSync(join(dir, 'taxpayer-89890001K.p12'));
    const again = writeTestCertificates(dir, { platformNif: 'B85905495', taxpayerNifs: ['89890001K'] });
    expect(again.written).toEqual(['taxpayer-89890001K.p12', 'passwords.json']);
    expect(readFileSync(join(dir, 'ca.pem'), 'utf8')).toBe(ca);
    expect(readFileSync(join(dir, 'platform.p12')).equals(platform)).toBe(true);
    const passwords = JSON.parse(readFileSync(join(dir, 'passwords.json'), 'utf8'));
    expect(openP12('taxpayer-89890001K.p12', passwords['taxpayer-89890001K.p12'])).toHaveLength(2);

    writeTestCertificates(dir, { force: true, platformNif: 'B85905495', taxpayerNifs: ['89890001K'] });
    expect(readFileSync(join(dir, 'ca.pem'), 'utf8')).not.toBe(ca);
  });
});
