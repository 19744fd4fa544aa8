import { buildRegistrationRecord, validateInvoiceRequest, type NormalizedInvoice } from '@vf/core';
import { toNormalizedInvoice, toStoredInvoice } from './chain-record-row';

function valid(body: Record<string, unknown>): NormalizedInvoice {
  const result = validateInvoiceRequest(body, { today: '2026-11-22' });
  if (!result.valid) throw new Error(JSON.stringify(result.errors));
  return result.invoice;
}

const base = {
  taxpayer_id: '3f1c2a4e-8a0b-4c7e-9f51-1d2e3f4a5b6c',
  computer_system_id: '7d9e8f10-1a2b-4c3d-8e4f-5a6b7c8d9e0f',
  invoice_date: '2026-11-20',
  description: 'Consulting services',
};

test('a substitution corrective with a foreign recipient and a surcharge line survives the round trip unchanged', () => {
  const invoice = valid({
    ...base,
    invoice_number: 'R-2026/7',
    invoice_type: 'R1',
    operation_date: '2026-11-18',
    recipient: { name: 'Kunde GmbH', country: 'DE', id_type: '02', id: 'DE123456789' },
    rectification_type: 'S',
    rectified_base_amount: 50,
    rectified_tax_amount: 10.5,
    corrected_invoices: [{ invoice_number: 'F-1', invoice_date: '2026-11-01' }],
    breakdown: [
      {
        tax_type: '01',
        regime_type: '01',
        operation_type: 'S1',
        base_amount: -100,
        tax_rate: 21,
        tax_amount: -21,
        surcharge_rate: 5.2,
        surcharge_amount: -5.2,
      },
      { tax_type: '01', regime_type: '01', operation_type: 'N1', base_amount: -10 },
    ],
    total_amount: -136.2,
    total_tax_amount: -26.2,
  });
  const stored = toStoredInvoice(invoice);
  expect(stored.content.recipient).toEqual({ name: 'Kunde GmbH', country: 'DE', id_type: '02', id: 'DE123456789' });
  expect(stored.lines[1]).toMatchObject({ taxRate: null, taxAmount: null, surchargeRate: null });
  expect(toNormalizedInvoice(stored.content, stored.lines)).toEqual(invoice);
});

test('a simplified invoice without recipient or corrections comes back without them', () => {
  const invoice = valid({
    ...base,
    invoice_number: 'T-1',
    invoice_type: 'F2',
    breakdown: [{ tax_type: '01', regime_type: '01', operation_type: 'S1', base_amount: 10, tax_rate: 10, tax_amount: 1 }],
    total_amount: 11,
    total_tax_amount: 1,
  });
  const stored = toStoredInvoice(invoice);
  expect(stored.content).toMatchObject({ recipient: null, rectificationType: null, operationDate: null, correctedInvoices: [] });
  expect(toNormalizedInvoice(stored.content, stored.lines)).toEqual(invoice);
});

test('what the records can say beyond the contract survives the round trip, so a resend rebuilds the same record', () => {
  const invoice = valid({
    ...base,
    invoice_number: 'F3-1',
    invoice_type: 'F3',
    recipients: [
      { name: 'Uno SL', nif: 'B85905495' },
      { name: 'Client SARL', id_type: '02', id: 'FR12345678901' },
    ],
    issued_by: 'third_party',
    third_party: { name: 'Gestoría SL', nif: 'A86018322' },
    simplified_art_72_73: true,
    substituted_invoices: [{ invoice_number: 'T-1', invoice_date: '2026-11-01' }],
    breakdown: [{ tax_type: '05', operation_type: 'S1', base_amount: 100, cost_base_amount: 90, tax_rate: 10, tax_amount: 9 }],
    total_amount: 109,
    total_tax_amount: 9,
  });
  const stored = toStoredInvoice(invoice);
  expect(stored.content).toMatchObject({
    recipient: { name: 'Uno SL', nif: 'B85905495' },
    additionalRecipients: [{ name: 'Client SARL', id_type: '02', id: 'FR12345678901' }],
    issuedBy: 'T',
    simplifiedArt7273: true,
    coupon: false,
  });
  expect(stored.lines[0].costBaseAmount).toBe('90.00');
  const rebuilt = toNormalizedInvoice(stored.content, stored.lines);
  expect(rebuilt).toEqual(invoice);
  const record = (i: NormalizedInvoice) =>
    buildRegistrationRecord({
      invoice: i,
      issuer: { nif: '89890001K', name: 'Emisor SL' },
      system: {
        NombreRazon: 'Vendor SL',
        NIF: 'B85905495',
        NombreSistemaInformatico: 'VF',
        IdSistemaInformatico: '01',
        Version: '1.0',
        NumeroInstalacion: '1',
        TipoUsoPosibleSoloVerifactu: 'S',
        TipoUsoPosibleMultiOT: 'S',
        IndicadorMultiplesOT: 'N',
      },
      generatedAt: '2026-11-20T10:00:00+01:00',
    });
  expect(record(rebuilt)).toEqual(record(invoice));
  expect(record(rebuilt).thirdParty).toEqual({ name: 'Gestoría SL', nif: 'A86018322' });
});
