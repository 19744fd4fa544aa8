import { buildQrUrl } from './build-qr-url';

describe('buildQrUrl', () => {
  it("reproduces AEAT's test-environment example, with '&' in the invoice number encoded as %26", () => {
    const url = buildQrUrl(
      { nif: '89890001K', invoiceNumber: '12345678&G33', invoiceDate: '01-01-2024', total: '241.4' },
      { production: false },
    );
    expect(url).toBe(
      'https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?nif=89890001K&numserie=12345678%26G33&fecha=01-01-2024&importe=241.4',
    );
  });

  it("reproduces AEAT's production example", () => {
    const url = buildQrUrl(
      { nif: '89890001K', invoiceNumber: '12345678-G33', invoiceDate: '01-09-2024', total: '241.4' },
      { production: true },
    );
    expect(url).toBe(
      'https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR?nif=89890001K&numserie=12345678-G33&fecha=01-09-2024&importe=241.4',
    );
  });

  it('encodes "/" as %2F, a space as "+" and "~" as %7E, like application/x-www-form-urlencoded', () => {
    const url = buildQrUrl(
      { nif: 'B85905495', invoiceNumber: 'A/2025 001~x', invoiceDate: '13-11-2024', total: '-12.10' },
      { production: false },
    );
    expect(url).toBe(
      'https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?nif=B85905495&numserie=A%2F2025+001%7Ex&fecha=13-11-2024&importe=-12.10',
    );
  });

  it('carries exactly the four parameters, in order, and decodes back to the record values', () => {
    const url = new URL(
      buildQrUrl({ nif: '89890001K', invoiceNumber: "F'1 & <2>", invoiceDate: '01-01-2025', total: '100.00' }, { production: true }),
    );
    expect([...url.searchParams.keys()]).toEqual(['nif', 'numserie', 'fecha', 'importe']);
    expect(url.searchParams.get('numserie')).toBe("F'1 & <2>");
  });

  it('encodes every value as URLSearchParams does, whether or not it needs encoding', () => {
    const values = ['A-1', 'a.b_c*d', '', 'F 1', ' F1 ', 'Nº 7', 'x+y', 'x=y', 'x%y', 'éü€😀', "F'1 & <2>", '~!()', '12.10', '-0.01'];
    for (const invoiceNumber of values) {
      const url = buildQrUrl({ nif: '89890001K', invoiceNumber, invoiceDate: '01-01-2025', total: '1.00' }, { production: false });
      const expected = new URLSearchParams([
        ['nif', '89890001K'],
        ['numserie', invoiceNumber.trim()],
        ['fecha', '01-01-2025'],
        ['importe', '1.00'],
      ]).toString();
      expect(url).toBe(`https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?${expected}`);
    }
  });
});

describe('buildQrUrl for a NO VERI*FACTU record', () => {
  it('points at ValidarQRNoVerifactu in each environment, with the same parameters', () => {
    const values = { nif: '89890001K', invoiceNumber: '12345678&G33', invoiceDate: '01-01-2024', total: '241.4' };
    expect(buildQrUrl(values, { production: false, noVerifactu: true })).toBe(
      'https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQRNoVerifactu?nif=89890001K&numserie=12345678%26G33&fecha=01-01-2024&importe=241.4',
    );
    expect(buildQrUrl(values, { production: true, noVerifactu: true })).toBe(
      'https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQRNoVerifactu?nif=89890001K&numserie=12345678%26G33&fecha=01-01-2024&importe=241.4',
    );
  });
});
