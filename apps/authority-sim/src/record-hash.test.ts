import { cancellationRecord, f1Record } from '@vf/xml/testing';
import { expectedHuella } from './record-hash';

// Vectors of AEAT's huella specification §6.1/6.2 and of its signature specification §8.1.
describe('expectedHuella', () => {
  const first = f1Record(
    { issuerNif: '89890001K', invoiceNumber: '12345678/G33', invoiceDate: '01-01-2024' },
    { totalTax: '12.35', total: '123.45', generatedAt: '2024-01-01T19:20:30+01:00' },
  );

  it('matches the AEAT vectors for a first and a chained record', () => {
    expect(expectedHuella(first)).toBe('3C464DAF61ACB827C65FDA19F352A4E3BDC2C640E9E9FC4CC058073F38F12F60');
    const second = f1Record(
      { issuerNif: '89890001K', invoiceNumber: '12345679/G34', invoiceDate: '01-01-2024' },
      {
        totalTax: '12.35',
        total: '123.45',
        generatedAt: '2024-01-01T19:20:35+01:00',
        previous: { ...first.id, hash: '3C464DAF61ACB827C65FDA19F352A4E3BDC2C640E9E9FC4CC058073F38F12F60' },
      },
    );
    expect(expectedHuella(second)).toBe('F7B94CFD8924EDFF273501B01EE5153E4CE8F259766F88CF6ACB8935802A2B97');
  });

  it('hashes the amount literals as written (41.4 is not 41.40)', () => {
    const r3 = f1Record(
      { issuerNif: '89890001K', invoiceNumber: '12345678-G66', invoiceDate: '03-02-2025' },
      {
        invoiceType: 'R3',
        totalTax: '41.4',
        total: '241.4',
        generatedAt: '2025-02-03T14:30:00+01:00',
        previous: {
          issuerNif: '89890001K',
          invoiceNumber: '12345677-G33',
          invoiceDate: '15-04-2024',
          hash: 'C9AF4AF1EF5EBBA700350DE3EEF12C2D355C56AC56F13DB2A25E0031BD2B7ED5',
        },
      },
    );
    expect(expectedHuella(r3)).toBe('FF954378B64ED331A9B2366AD317D86E9DEC1716B12DD0ACCB172A6DC4C105AA');
    expect(expectedHuella({ ...r3, totalTax: '41.40', total: '241.40' })).toBe(
      '7F422CFC6C1F396693406A5C4AE281E83A8A907678250A0A7E150CD54291F7EB',
    );
  });

  it('uses the RegistroAnulacion formula for an anulación: AEAT huella specification §6.3', () => {
    const anulacion = cancellationRecord(
      { issuerNif: '89890001K', invoiceNumber: '12345679/G34', invoiceDate: '01-01-2024' },
      {
        generatedAt: '2024-01-01T19:20:40+01:00',
        previous: {
          issuerNif: '89890001K',
          invoiceNumber: '12345679/G34',
          invoiceDate: '01-01-2024',
          hash: 'F7B94CFD8924EDFF273501B01EE5153E4CE8F259766F88CF6ACB8935802A2B97',
        },
      },
    );
    expect(expectedHuella(anulacion)).toBe('177547C0D57AC74748561D054A9CEC14B4C4EA23D1BEFD6F2E69E3A388F90C68');
  });
});
