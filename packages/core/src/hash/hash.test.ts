import { cancellationHashInput, computeCancellationHash, computeRegistrationHash, registrationHashInput } from '.';
import { hashInput } from './sha256-hex';

// The authority's own vectors (its huella specification §6, its signature specification §8) and third-party ones.
describe('computeRegistrationHash', () => {
  it('reproduces AEAT huella specification §6.1, the first record of a chain (empty previous huella)', () => {
    const fields = {
      issuerNif: '89890001K',
      invoiceNumber: '12345678/G33',
      invoiceDate: '01-01-2024',
      invoiceType: 'F1',
      totalTax: '12.35',
      total: '123.45',
      generatedAt: '2024-01-01T19:20:30+01:00',
    };
    expect(registrationHashInput(fields)).toBe(
      'IDEmisorFactura=89890001K&NumSerieFactura=12345678/G33&FechaExpedicionFactura=01-01-2024&TipoFactura=F1&CuotaTotal=12.35&ImporteTotal=123.45&Huella=&FechaHoraHusoGenRegistro=2024-01-01T19:20:30+01:00',
    );
    expect(computeRegistrationHash(fields)).toBe('3C464DAF61ACB827C65FDA19F352A4E3BDC2C640E9E9FC4CC058073F38F12F60');
  });

  it('writes its fields as hashInput does, every value trimmed and an absent one empty', () => {
    const fields = {
      issuerNif: ' 89890001K',
      invoiceNumber: 'A 1 ',
      invoiceDate: '01-01-2024',
      invoiceType: 'F1',
      totalTax: '0.00',
      total: '-1.00',
      previousHash: ' ABC ',
      generatedAt: '2024-01-01T19:20:30+01:00',
    };
    const generic = (f: Omit<typeof fields, 'previousHash'> & { previousHash?: string }) =>
      hashInput([
        ['IDEmisorFactura', f.issuerNif],
        ['NumSerieFactura', f.invoiceNumber],
        ['FechaExpedicionFactura', f.invoiceDate],
        ['TipoFactura', f.invoiceType],
        ['CuotaTotal', f.totalTax],
        ['ImporteTotal', f.total],
        ['Huella', f.previousHash],
        ['FechaHoraHusoGenRegistro', f.generatedAt],
      ]);
    expect(registrationHashInput(fields)).toBe(generic(fields));
    const first = { ...fields, previousHash: undefined };
    expect(registrationHashInput(first)).toBe(generic(first));
  });

  it('reproduces AEAT huella specification §6.2, chained to 6.1', () => {
    const fields = {
      issuerNif: '89890001K',
      invoiceNumber: '12345679/G34',
      invoiceDate: '01-01-2024',
      invoiceType: 'F1',
      totalTax: '12.35',
      total: '123.45',
      previousHash: '3C464DAF61ACB827C65FDA19F352A4E3BDC2C640E9E9FC4CC058073F38F12F60',
      generatedAt: '2024-01-01T19:20:35+01:00',
    };
    expect(registrationHashInput(fields)).toBe(
      'IDEmisorFactura=89890001K&NumSerieFactura=12345679/G34&FechaExpedicionFactura=01-01-2024&TipoFactura=F1&CuotaTotal=12.35&ImporteTotal=123.45&Huella=3C464DAF61ACB827C65FDA19F352A4E3BDC2C640E9E9FC4CC058073F38F12F60&FechaHoraHusoGenRegistro=2024-01-01T19:20:35+01:00',
    );
    expect(computeRegistrationHash(fields)).toBe('F7B94CFD8924EDFF273501B01EE5153E4CE8F259766F88CF6ACB8935802A2B97');
  });

  const r3 = {
    issuerNif: '89890001K',
    invoiceNumber: '12345678-G66',
    invoiceDate: '03-02-2025',
    invoiceType: 'R3',
    previousHash: 'C9AF4AF1EF5EBBA700350DE3EEF12C2D355C56AC56F13DB2A25E0031BD2B7ED5',
    generatedAt: '2025-02-03T14:30:00+01:00',
  };

  it('reproduces AEAT signature specification §8.1 (R3) with the one-decimal literals its XML carries', () => {
    expect(computeRegistrationHash({ ...r3, totalTax: '41.4', total: '241.4' })).toBe(
      'FF954378B64ED331A9B2366AD317D86E9DEC1716B12DD0ACCB172A6DC4C105AA',
    );
  });

  it('hashes the literal, not the number: 41.40/241.40 give a different huella for the same R3 record', () => {
    expect(computeRegistrationHash({ ...r3, totalTax: '41.40', total: '241.40' })).toBe(
      '7F422CFC6C1F396693406A5C4AE281E83A8A907678250A0A7E150CD54291F7EB',
    );
  });

  it.each([
    [
      'josemmo/Verifactu-PHP, first record',
      {
        issuerNif: 'A00000000',
        invoiceNumber: 'PRUEBA-0001',
        invoiceDate: '01-06-2025',
        invoiceType: 'F2',
        totalTax: '2.10',
        total: '12.10',
        generatedAt: '2025-06-01T10:20:30+02:00',
      },
      'F223F0A84F7D0C701C13C97CF10A1628FF9E46A003DDAEF3A804FBD799D82070',
    ],
    [
      'josemmo/Verifactu-PHP, chained record',
      {
        issuerNif: 'A00000000',
        invoiceNumber: 'PRUEBA-0002',
        invoiceDate: '02-06-2025',
        invoiceType: 'F2',
        totalTax: '21.00',
        total: '121.00',
        previousHash: 'A'.repeat(64),
        generatedAt: '2025-06-02T20:30:40+02:00',
      },
      '4566062C5A5D7DA4E0E876C0994071CD807962629F8D3C1F33B91EDAA65B2BA1',
    ],
    [
      'invopop/gobl.verifactu inv-base.xml',
      {
        issuerNif: 'B85905495',
        invoiceNumber: 'SAMPLE-004',
        invoiceDate: '13-11-2024',
        invoiceType: 'F1',
        totalTax: '378.00',
        total: '2178.00',
        previousHash: '0123456789ABCDEF'.repeat(4),
        generatedAt: '2024-11-26T05:00:00+01:00',
      },
      'F5D2E033EEB82E06908BE1F7059D84F1A0DCA49FB7CC383E7F11D119FF36370F',
    ],
  ])('reproduces the third-party vector from %s', (_source, fields, huella) => {
    expect(computeRegistrationHash(fields)).toBe(huella);
  });

  it('trims values as the authority does on reception', () => {
    const padded = computeRegistrationHash({
      issuerNif: ' 89890001K ',
      invoiceNumber: '12345678/G33\t',
      invoiceDate: '01-01-2024',
      invoiceType: 'F1',
      totalTax: ' 12.35',
      total: '123.45 ',
      previousHash: '  ',
      generatedAt: '2024-01-01T19:20:30+01:00 ',
    });
    expect(padded).toBe('3C464DAF61ACB827C65FDA19F352A4E3BDC2C640E9E9FC4CC058073F38F12F60');
  });

  it('writes values unescaped (an "&" in the invoice number stays "&")', () => {
    const input = registrationHashInput({
      issuerNif: '89890001K',
      invoiceNumber: '12345678&G33',
      invoiceDate: '01-01-2024',
      invoiceType: 'F1',
      totalTax: '12.35',
      total: '123.45',
      generatedAt: '2024-01-01T19:20:30+01:00',
    });
    expect(input).toContain('NumSerieFactura=12345678&G33&');
  });
});

describe('computeCancellationHash', () => {
  it('reproduces AEAT huella specification §6.3, the RegistroAnulacion chained after 6.2', () => {
    const fields = {
      issuerNif: '89890001K',
      invoiceNumber: '12345679/G34',
      invoiceDate: '01-01-2024',
      previousHash: 'F7B94CFD8924EDFF273501B01EE5153E4CE8F259766F88CF6ACB8935802A2B97',
      generatedAt: '2024-01-01T19:20:40+01:00',
    };
    expect(cancellationHashInput(fields)).toBe(
      'IDEmisorFacturaAnulada=89890001K&NumSerieFacturaAnulada=12345679/G34&FechaExpedicionFacturaAnulada=01-01-2024&Huella=F7B94CFD8924EDFF273501B01EE5153E4CE8F259766F88CF6ACB8935802A2B97&FechaHoraHusoGenRegistro=2024-01-01T19:20:40+01:00',
    );
    expect(computeCancellationHash(fields)).toBe('177547C0D57AC74748561D054A9CEC14B4C4EA23D1BEFD6F2E69E3A388F90C68');
  });

  it('writes "Huella=" when the cancellation is the first record of the chain', () => {
    expect(
      cancellationHashInput({
        issuerNif: '89890001K',
        invoiceNumber: 'X-1',
        invoiceDate: '01-01-2025',
        generatedAt: '2025-01-01T10:00:00+01:00',
      }),
    ).toBe(
      'IDEmisorFacturaAnulada=89890001K&NumSerieFacturaAnulada=X-1&FechaExpedicionFacturaAnulada=01-01-2025&Huella=&FechaHoraHusoGenRegistro=2025-01-01T10:00:00+01:00',
    );
  });
});
