import type { RegistrationRecord } from '@vf/core';
import { buildRegFactuRequest } from './build-reg-factu-request';
import { buildConsultaResponse } from './build-consulta-response';
import { parseRegFactuRequest } from './parse-reg-factu-request';
import { f1Record, f2Record, SAMPLE_ISSUER } from './testing/sample-records';
import { validateEachAgainstXsd } from './validate-against-xsd';

const header = { obligado: SAMPLE_ISSUER };

// One record for each part of a RegistroAlta beyond the contract's fields (SuministroInformacion.xsd).
const records: [string, RegistrationRecord][] = [
  [
    'several recipients, the last one by EU VAT number without CodigoPais',
    f1Record(
      { invoiceNumber: 'M-1' },
      {
        recipients: [
          { name: 'CLIENTE DOS', nif: '89890002E' },
          { name: 'CLIENT SARL', idType: '02', id: 'FR12345678901' },
        ],
      },
    ),
  ],
  [
    'issued by a third party (Tercero) as a qualified simplified invoice',
    f1Record({ invoiceNumber: 'T-1' }, { issuedBy: 'T', thirdParty: { name: 'GESTORIA SL', nif: 'B85905495' }, simplifiedArt7273: true }),
  ],
  ['issued by the recipient', f1Record({ invoiceNumber: 'D-1' }, { issuedBy: 'D' })],
  [
    'an F3 replacing simplified invoices',
    f1Record(
      { invoiceNumber: 'S-1' },
      {
        invoiceType: 'F3',
        substitutedInvoices: [
          { issuerNif: SAMPLE_ISSUER.nif, invoiceNumber: 'T-7', invoiceDate: '10-01-2025' },
          { issuerNif: SAMPLE_ISSUER.nif, invoiceNumber: 'T-8', invoiceDate: '11-01-2025' },
        ],
      },
    ),
  ],
  [
    'a substitution with its recargo and a coupon',
    f1Record(
      { invoiceNumber: 'R-9' },
      {
        invoiceType: 'R1',
        rectificationType: 'S',
        rectifiedInvoices: [{ issuerNif: SAMPLE_ISSUER.nif, invoiceNumber: 'A-1', invoiceDate: '02-01-2025' }],
        rectificationAmounts: { base: '100.00', tax: '21.00', surcharge: '5.20' },
        coupon: true,
      },
    ),
  ],
  ['a simplified invoice without identified recipient', f2Record({ invoiceNumber: 'N-1' }, { withoutRecipientArt61d: true })],
  [
    'a regime 06 line with its cost base',
    f1Record(
      { invoiceNumber: 'G-1' },
      {
        lines: [{ tax: '01', regime: '06', qualification: 'S1', rate: '21.00', base: '100.00', costBase: '80.00', taxAmount: '16.80' }],
        totalTax: '16.80',
        total: '116.80',
      },
    ),
  ],
];

describe('what a RegistroAlta can carry beyond the contract', () => {
  it('writes each into a schema-valid message and reads it back unchanged', async () => {
    const xmls = records.map(([, record]) => buildRegFactuRequest(header, [record]));
    const verdicts = await validateEachAgainstXsd(xmls, 'request');
    verdicts.forEach((v, i) => expect({ label: records[i][0], errors: v.errors }).toEqual({ label: records[i][0], errors: [] }));
    xmls.forEach((xml, i) => expect(parseRegFactuRequest(xml).records).toEqual([records[i][1]]));
  });

  it('puts the elements in the schema order, only S for the flags and never an empty block', () => {
    const xml = buildRegFactuRequest(header, [
      f1Record(
        {},
        {
          issuedBy: 'T',
          thirdParty: { name: 'GESTORIA SL', nif: 'B85905495' },
          simplifiedArt7273: true,
          coupon: true,
          substitutedInvoices: [],
        },
      ),
    ]);
    const order = [
      'DescripcionOperacion',
      'FacturaSimplificadaArt7273',
      'EmitidaPorTerceroODestinatario',
      'Tercero',
      'Destinatarios',
      'Cupon',
      'Desglose',
    ].map((name) => xml.indexOf(`<sum1:${name}>`));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(order).not.toContain(-1);
    expect(xml).toContain('<sum1:FacturaSimplificadaArt7273>S</sum1:FacturaSimplificadaArt7273>');
    expect(xml).not.toContain('FacturasSustituidas');
    expect(xml).not.toContain('FacturaSinIdentifDestinatarioArt61d');
  });

  it('goes into a consulta answer the same way, valid against its own schema', async () => {
    const record = records[1][1];
    const answer = buildConsultaResponse({
      obligado: SAMPLE_ISSUER,
      period: { year: '2025', month: '01' },
      hasMore: false,
      records: [{ id: record.id, data: record, state: 'Correcto', lastModified: '2025-01-15T10:21:00+01:00' }],
    });
    const [verdict] = await validateEachAgainstXsd([answer], 'consulta-response');
    expect(verdict.errors).toEqual([]);
    expect(answer).toContain('EmitidaPorTerceroODestinatario>T<');
  });
});
