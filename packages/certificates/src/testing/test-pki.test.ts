import { createServer, request } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import forge from 'node-forge';
import { certificateNif } from '../certificate-nif';
import { createTestCa, issueCertificate, toPkcs12 } from './test-pki';

const ca = createTestCa();
const server = issueCertificate(ca, { commonName: 'simulator', serverHosts: ['127.0.0.1', 'localhost'] });
const person = issueCertificate(ca, { commonName: 'NOMBRE APELLIDO', nif: '89890001K' });
const company = issueCertificate(ca, { commonName: 'EMPRESA DE PRUEBAS SL', nif: 'B85905495' });

describe('test PKI', () => {
  it('writes the holder NIF the way Spanish qualified certificates do', () => {
    const personSubject = new X509Certificate(person.certPem).subject;
    expect(personSubject).toContain('serialNumber=IDCES-89890001K');
    expect(personSubject).toContain('CN=NOMBRE APELLIDO - 89890001K');
    const companySubject = new X509Certificate(company.certPem).subject;
    expect(companySubject).toContain('serialNumber=VATES-B85905495');
    expect(companySubject).toMatch(/organizationIdentifier=VATES-B85905495/);
    expect(certificateNif(person.cert)).toBe('89890001K');
    expect(certificateNif(forge.pki.certificateFromPem(company.certPem))).toBe('B85905495');
    expect(certificateNif(server.cert)).toBeUndefined();
  });

  it('issues certificates that chain to the CA and carry the requested validity', () => {
    const notAfter = new Date(Date.now() - 1000);
    const expired = issueCertificate(ca, {
      commonName: 'EXPIRED',
      nif: '89890002E',
      notBefore: new Date(Date.now() - 86_400_000),
      notAfter,
    });
    const x509 = new X509Certificate(expired.certPem);
    expect(x509.verify(new X509Certificate(ca.certPem).publicKey)).toBe(true);
    expect(new Date(x509.validTo).getTime()).toBe(Math.floor(notAfter.getTime() / 1000) * 1000);
    expect(createPrivateKey(expired.keyPem).asymmetricKeyDetails?.modulusLength).toBe(2048);
  });

  it('produces a PKCS#12 node-forge can open with the password and not without', () => {
    const p12 = toPkcs12(company, 'secret-pw', ca);
    const asn1 = forge.asn1.fromDer(forge.util.createBuffer(p12.toString('binary')));
    const opened = forge.pkcs12.pkcs12FromAsn1(asn1, 'secret-pw');
    const certs = opened.getBags({ bagType: forge.pki.oids.certBag })[forge.pki.oids.certBag] ?? [];
    expect(certs.map((bag) => certificateNif(bag.cert!))).toContain('B85905495');
    const keys = opened.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag })[forge.pki.oids.pkcs8ShroudedKeyBag] ?? [];
    expect(forge.pki.privateKeyToPem(keys[0].key!)).toBe(forge.pki.privateKeyToPem(company.key));
    expect(() => forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(forge.util.createBuffer(p12.toString('binary'))), 'wrong')).toThrow();
  });

  it('works for mutual TLS with Node: server cert for 127.0.0.1, client cert verified against the CA', async () => {
    const tls = createServer(
      { key: server.keyPem, cert: server.certPem, ca: ca.certPem, requestCert: true, rejectUnauthorized: true },
      (req, res) => {
        const peer = (req.socket as import('node:tls').TLSSocket).getPeerCertificate();
        res.end(peer.subject.CN);
      },
    );
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    const { port } = tls.address() as AddressInfo;
    try {
      const body = await new Promise<string>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: '/', key: person.keyPem, cert: person.certPem, ca: ca.certPem }, (res) => {
          let data = '';
          res.on('data', (chunk) => (data += chunk));
          res.on('end', () => resolve(data));
        });
        req.on('error', reject);
        req.end();
      });
      expect(body).toBe('NOMBRE APELLIDO - 89890001K');
    } finally {
      await new Promise((resolve) => tls.close(resolve));
    }
  });
});
