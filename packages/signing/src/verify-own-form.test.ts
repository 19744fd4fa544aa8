import { createTestCa, issueCertificate } from '@vf/certificates/testing';
import { buildRecordXml } from '@vf/xml';
import { cancellationRecord, f1Record, SAMPLE_ISSUER } from '@vf/xml/testing';
import { signingIdentity, signRecord } from './index';
import { verifyOwnForm } from './verify-own-form';
import { verifyParsed, verifyRecordSignature } from './verify-record-signature';

const DAY_MS = 24 * 60 * 60 * 1000;
const ca = createTestCa();
const holder = issueCertificate(ca, { commonName: 'CONTRIBUYENTE DE PRUEBAS', nif: SAMPLE_ISSUER.nif });
const identity = signingIdentity({ keyPem: holder.keyPem, certPem: holder.certPem, chainPem: [ca.certPem] });
const other = signingIdentity(issueCertificate(ca, { commonName: 'OTRO', nif: 'A86018322' }));

const alta = f1Record(
  { invoiceNumber: 'A&B<1>"2"' },
  { description: "Consultoría 'ñ' & <desarrollo>\r\nsegunda línea", hash: 'A'.repeat(64) },
);
const anulacion = cancellationRecord(alta.id, { previous: { ...alta.id, hash: alta.hash }, hash: 'B'.repeat(64) });

test.each([
  ['an alta', buildRecordXml(alta)],
  ['an anulación', buildRecordXml(anulacion)],
])('%s signed by the workers gets from the quick path the very verdict the parsed verification gives', (_label, record) => {
  const signed = signRecord(record, identity, { at: new Date() });
  const quick = verifyOwnForm(signed);
  expect(quick).toMatchObject({ status: 'valid' });
  expect(quick).toEqual(verifyParsed(signed));
});

describe('anything the quick path cannot vouch for goes to the parsed verification', () => {
  const record = buildRecordXml(alta);
  const signed = signRecord(record, identity, { at: new Date() });
  const cases: [string, string][] = [
    ['a changed amount', signed.replace('<sum1:ImporteTotal>', '<sum1:ImporteTotal>1')],
    ['a changed signing time', signed.replace(/<xades:SigningTime>[^<]*/, '<xades:SigningTime>2020-01-01T00:00:00.000Z')],
    ['a changed digest', signed.replace(/<ds:DigestValue>[^<]/, '<ds:DigestValue>x')],
    ['a changed signature value', signed.replace(/(<ds:SignatureValue[^>]*>)[A-Za-z]/, '$1Q')],
    ['another certificate in KeyInfo', signed.replace(identity.certificate.base64, other.certificate.base64)],
    ['a record not in canonical form', signRecord(record.replace('<sum1:IDVersion>', '<sum1:IDVersion >'), identity, { at: new Date() })],
    ['a character reference in the text', signRecord(record.replace('Consultor', '&#67;onsultor'), identity, { at: new Date() })],
    ['an element of an undeclared prefix', signRecord(record.replace(/sum1:IDVersion/g, 'x:IDVersion'), identity, { at: new Date() })],
    ['unbalanced tags', signRecord(record.replace('</sum1:IDVersion>', '</sum1:IDVersionX>'), identity, { at: new Date() })],
    [
      'a certificate expired when it signed',
      signRecord(
        record,
        signingIdentity(
          issueCertificate(ca, {
            commonName: 'CADUCADO',
            nif: SAMPLE_ISSUER.nif,
            notBefore: new Date(Date.now() - 400 * DAY_MS),
            notAfter: new Date(Date.now() - DAY_MS),
          }),
        ),
        { at: new Date() },
      ),
    ],
  ];
  test.each(cases)('%s', (_label, xml) => {
    expect(verifyOwnForm(xml)).toBeUndefined();
    expect(verifyRecordSignature(xml)).toEqual(verifyParsed(xml));
  });
});
