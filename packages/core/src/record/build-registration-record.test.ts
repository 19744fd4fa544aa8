import type { SistemaInformatico } from '../registration-record';
import type { NormalizedInvoice } from '../validation/types';
import { buildRegistrationRecord } from './build-registration-record';

const system: SistemaInformatico = {
  NombreRazon: 'CERTIFICADO UNO TELEMATICAS',
  NIF: '89890001K',
  NombreSistemaInformatico: 'NombreSistemaInformatico',
  IdSistemaInformatico: '77',
  Version: '1.0.03',
  NumeroInstalacion: '383',
  TipoUsoPosibleSoloVerifactu: 'S',
  TipoUsoPosibleMultiOT: 'N',
  IndicadorMultiplesOT: 'N',
};
const issuer = { nif: '89890001K', name: 'certificado uno telematicas' };

// The invoice behind AEAT's huella specification §6.1/6.2: CuotaTotal 12.35, ImporteTotal 123.45.
function vectorInvoice(invoiceNumber: string): NormalizedInvoice {
  return {
    taxpayerId: '3f1c2a4e-8a0b-4c7e-9f51-1d2e3f4a5b6c',
    computerSystemId: '7d9e8f10-1a2b-4c3d-8e4f-5a6b7c8d9e0f',
    invoiceNumber,
    invoiceDate: '2024-01-01',
    invoiceType: 'F1',
    description: 'Venta',
    recipients: [{ name: 'certificado dos telematicas', nif: '89890002E' }],
    correctedInvoices: [],
    substitutedInvoices: [],
    lines: [{ taxType: '01', regimeType: '01', operationType: 'S1', baseAmount: '111.10', taxRate: '11.12', taxAmount: '12.35' }],
    totalAmount: '123.45',
    totalTaxAmount: '12.35',
  };
}

describe('buildRegistrationRecord', () => {
  it('reproduces the huellas of AEAT vectors 6.1 and 6.2 when fed their data, chaining the second to the first', () => {
    const first = buildRegistrationRecord({
      invoice: vectorInvoice('12345678/G33'),
      issuer,
      system,
      generatedAt: '2024-01-01T19:20:30+01:00',
    });
    expect(first.hash).toBe('3C464DAF61ACB827C65FDA19F352A4E3BDC2C640E9E9FC4CC058073F38F12F60');
    expect(first.previous).toBeUndefined();

    const second = buildRegistrationRecord({
      invoice: vectorInvoice('12345679/G34'),
      issuer,
      system,
      previous: { ...first.id, hash: first.hash },
      generatedAt: '2024-01-01T19:20:35+01:00',
    });
    expect(second.hash).toBe('F7B94CFD8924EDFF273501B01EE5153E4CE8F259766F88CF6ACB8935802A2B97');
    expect(second.previous).toEqual({ issuerNif: '89890001K', invoiceNumber: '12345678/G33', invoiceDate: '01-01-2024', hash: first.hash });
  });

  it('maps an F1 invoice to the RegistroAlta literals and omits every absent optional block', () => {
    const record = buildRegistrationRecord({
      invoice: vectorInvoice('A-1'),
      issuer,
      system,
      generatedAt: '2024-01-01T19:20:30+01:00',
      externalRef: 'inv-42',
    });
    expect(record).toEqual({
      id: { issuerNif: '89890001K', invoiceNumber: 'A-1', invoiceDate: '01-01-2024' },
      issuerName: 'certificado uno telematicas',
      externalRef: 'inv-42',
      invoiceType: 'F1',
      description: 'Venta',
      recipients: [{ name: 'certificado dos telematicas', nif: '89890002E' }],
      lines: [{ tax: '01', regime: '01', qualification: 'S1', rate: '11.12', base: '111.10', taxAmount: '12.35' }],
      totalTax: '12.35',
      total: '123.45',
      system,
      generatedAt: '2024-01-01T19:20:30+01:00',
      hash: expect.stringMatching(/^[0-9A-F]{64}$/),
    });
    expect(Object.keys(record)).not.toEqual(expect.arrayContaining(['operationDate', 'macrodato', 'previous', 'rectificationType']));
  });

  it("rebuilds AEAT's R3 example (ejemploRegistro.xml) from normalised data; two-decimal literals give the two-decimal huella", () => {
    const invoice: NormalizedInvoice = {
      taxpayerId: '3f1c2a4e-8a0b-4c7e-9f51-1d2e3f4a5b6c',
      computerSystemId: '7d9e8f10-1a2b-4c3d-8e4f-5a6b7c8d9e0f',
      invoiceNumber: '12345678-G66',
      invoiceDate: '2025-02-03',
      invoiceType: 'R3',
      description: 'fecha entrega',
      operationDate: '2025-02-03',
      recipients: [{ name: 'certificado dos telematicas', nif: '89890002E' }],
      rectificationType: 'I',
      correctedInvoices: [{ invoiceNumber: '12345600-G66', invoiceDate: '2024-04-01' }],
      substitutedInvoices: [],
      lines: [
        { taxType: '01', regimeType: '01', operationType: 'S1', baseAmount: '10.00', taxRate: '4.00', taxAmount: '0.40' },
        { taxType: '01', regimeType: '01', operationType: 'S1', baseAmount: '100.00', taxRate: '21.00', taxAmount: '21.00' },
        { taxType: '01', regimeType: '05', operationType: 'S1', baseAmount: '100.00', taxRate: '10.00', taxAmount: '10.00' },
      ],
      totalAmount: '241.40',
      totalTaxAmount: '41.40',
    };
    const record = buildRegistrationRecord({
      invoice,
      issuer,
      system,
      previous: {
        issuerNif: '89890001K',
        invoiceNumber: '12345677-G33',
        invoiceDate: '15-04-2024',
        hash: 'C9AF4AF1EF5EBBA700350DE3EEF12C2D355C56AC56F13DB2A25E0031BD2B7ED5',
      },
      generatedAt: '2025-02-03T14:30:00+01:00',
    });
    expect(record.hash).toBe('7F422CFC6C1F396693406A5C4AE281E83A8A907678250A0A7E150CD54291F7EB');
    expect(record.rectificationType).toBe('I');
    expect(record.rectifiedInvoices).toEqual([{ issuerNif: '89890001K', invoiceNumber: '12345600-G66', invoiceDate: '01-04-2024' }]);
    // The example repeats the issue date as FechaOperacion; the authority wants it only when it differs.
    expect(record).not.toHaveProperty('operationDate');
    expect(record).not.toHaveProperty('rectificationAmounts');
  });

  it('writes the operation date, substitution amounts, exemptions, surcharge and a foreign recipient', () => {
    const invoice: NormalizedInvoice = {
      ...vectorInvoice('R-7'),
      invoiceType: 'R1',
      invoiceDate: '2025-03-10',
      operationDate: '2025-02-28',
      recipients: [{ name: 'Client GmbH', country: 'DE', idType: '02', id: 'DE123456789' }],
      rectificationType: 'S',
      rectifiedBaseAmount: '100.00',
      rectifiedTaxAmount: '21.00',
      correctedInvoices: [
        { invoiceNumber: 'A-1', invoiceDate: '2025-01-15' },
        { invoiceNumber: 'A-2', invoiceDate: '2025-01-16' },
      ],
      lines: [
        {
          taxType: '01',
          regimeType: '18',
          operationType: 'S1',
          baseAmount: '-100.00',
          taxRate: '21.00',
          taxAmount: '-21.00',
          surchargeRate: '5.20',
          surchargeAmount: '-5.20',
        },
        { taxType: '01', regimeType: '02', operationType: 'E2', baseAmount: '50.00' },
        { taxType: '05', operationType: 'N1', baseAmount: '10.00' },
      ],
      totalAmount: '-66.20',
      totalTaxAmount: '-26.20',
    };
    const record = buildRegistrationRecord({ invoice, issuer, system, generatedAt: '2025-03-10T09:00:00+01:00' });
    expect(record.operationDate).toBe('28-02-2025');
    expect(record.rectificationType).toBe('S');
    expect(record.rectificationAmounts).toEqual({ base: '100.00', tax: '21.00' });
    expect(record.rectifiedInvoices?.map((r) => r.invoiceDate)).toEqual(['15-01-2025', '16-01-2025']);
    expect(record.rectifiedInvoices?.every((r) => r.issuerNif === '89890001K')).toBe(true);
    expect(record.recipients).toEqual([{ name: 'Client GmbH', country: 'DE', idType: '02', id: 'DE123456789' }]);
    expect(record.lines).toEqual([
      {
        tax: '01',
        regime: '18',
        qualification: 'S1',
        rate: '21.00',
        base: '-100.00',
        taxAmount: '-21.00',
        surchargeRate: '5.20',
        surchargeAmount: '-5.20',
      },
      { tax: '01', regime: '02', exemption: 'E2', base: '50.00' },
      { tax: '05', qualification: 'N1', base: '10.00' },
    ]);
  });

  it.each([
    ['99999999.99', undefined],
    ['100000000.00', true],
    ['-100000000.00', true],
    ['-99999999.99', undefined],
  ])('flags Macrodato for a total of %s: %p', (total, macrodato) => {
    const record = buildRegistrationRecord({
      invoice: { ...vectorInvoice('M-1'), totalAmount: total },
      issuer,
      system,
      generatedAt: '2025-01-01T10:00:00+01:00',
    });
    expect(record.macrodato).toBe(macrodato);
  });

  it('is deterministic: rebuilding from the same stored data gives the identical record', () => {
    const src = {
      invoice: vectorInvoice('A-9'),
      issuer,
      system,
      generatedAt: '2025-01-01T10:00:00+01:00',
      previous: { issuerNif: '89890001K', invoiceNumber: 'A-8', invoiceDate: '01-01-2025', hash: 'B'.repeat(64) },
    };
    expect(buildRegistrationRecord(structuredClone(src))).toEqual(buildRegistrationRecord(structuredClone(src)));
  });

  it('changes the huella when any hashed value changes, and not otherwise', () => {
    const base = { invoice: vectorInvoice('A-9'), issuer, system, generatedAt: '2025-01-01T10:00:00+01:00' };
    const hash = buildRegistrationRecord(base).hash;
    expect(buildRegistrationRecord({ ...base, invoice: { ...base.invoice, description: 'Other text' } }).hash).toBe(hash);
    expect(buildRegistrationRecord({ ...base, invoice: { ...base.invoice, totalAmount: '123.46' } }).hash).not.toBe(hash);
    expect(buildRegistrationRecord({ ...base, generatedAt: '2025-01-01T10:00:01+01:00' }).hash).not.toBe(hash);
  });

  it('refuses data that cannot be a record instead of sending garbage', () => {
    const base = { invoice: vectorInvoice('A-9'), issuer, system, generatedAt: '2025-01-01T10:00:00+01:00' };
    expect(() => buildRegistrationRecord({ ...base, invoice: { ...base.invoice, invoiceDate: '2025-02-30' } })).toThrow(RangeError);
    expect(() => buildRegistrationRecord({ ...base, invoice: { ...base.invoice, totalAmount: '12.345' } })).toThrow(RangeError);
    expect(() =>
      buildRegistrationRecord({
        ...base,
        invoice: { ...base.invoice, lines: [{ taxType: '01', regimeType: '01', operationType: 'X9', baseAmount: '1.00' }] },
      }),
    ).toThrow(RangeError);
  });
});
