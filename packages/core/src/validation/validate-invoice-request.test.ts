import { buildRegistrationRecord } from '../record';
import { f1Request } from '../testing';
import { errorAt, errorsOf, TODAY, warningsOf } from './errors-of';
import { validateInvoiceRequest } from './validate-invoice-request';

describe('validateInvoiceRequest: accepted requests', () => {
  it('normalises a valid F1: trimmed text, lowercase ids, default tax type, two-decimal literals, clean NIF', () => {
    const result = validateInvoiceRequest(
      f1Request({
        invoice_number: '  A-2026/0001 ',
        description: ' Consulting services ',
        recipient: { name: ' Cliente SL ', nif: 'es b85905495' },
        breakdown: [{ regime_type: '01', operation_type: 'S1', base_amount: '100', tax_rate: '21', tax_amount: 21 }],
        operation_date: '2026-11-20',
      }),
      { today: TODAY },
    );
    expect(result).toEqual({
      valid: true,
      warnings: [],
      invoice: {
        taxpayerId: '3f1c2a4e-8a0b-4c7e-9f51-1d2e3f4a5b6c',
        computerSystemId: '7d9e8f10-1a2b-4c3d-8e4f-5a6b7c8d9e0f',
        invoiceNumber: 'A-2026/0001',
        invoiceDate: '2026-11-20',
        invoiceType: 'F1',
        description: 'Consulting services',
        recipients: [{ name: 'Cliente SL', nif: 'B85905495' }],
        correctedInvoices: [],
        substitutedInvoices: [],
        lines: [{ taxType: '01', regimeType: '01', operationType: 'S1', baseAmount: '100.00', taxRate: '21.00', taxAmount: '21.00' }],
        totalAmount: '121.00',
        totalTaxAmount: '21.00',
      },
    });
  });

  it('accepts a reducing R1 with negative amounts, defaulting rectification_type to I', () => {
    const result = validateInvoiceRequest(
      f1Request({
        invoice_type: 'R1',
        corrected_invoices: [{ invoice_number: 'A-2026/0000', invoice_date: '2026-10-01' }],
        breakdown: [{ regime_type: '01', operation_type: 'S1', base_amount: -100, tax_rate: 21, tax_amount: -21 }],
        total_amount: -121,
        total_tax_amount: '-21.00',
      }),
      { today: TODAY },
    );
    expect(result.valid).toBe(true);
    if (!result.valid) return;
    expect(result.invoice.rectificationType).toBe('I');
    expect(result.invoice.correctedInvoices).toEqual([{ invoiceNumber: 'A-2026/0000', invoiceDate: '2026-10-01' }]);
    expect(result.invoice.totalAmount).toBe('-121.00');
  });

  it('accepts an F2 without recipient and a foreign EU recipient with a VIES warning', () => {
    expect(errorsOf(f1Request({ invoice_type: 'F2', recipient: undefined }))).toEqual([]);
    const body = f1Request({
      recipient: { name: 'Kunde GmbH', country: 'de', id_type: '02', id: 'DE 123456789' },
      breakdown: [{ regime_type: '01', operation_type: 'N2', base_amount: 100 }],
      total_amount: 100,
      total_tax_amount: 0,
    });
    const result = validateInvoiceRequest(body, { today: TODAY });
    expect(result.valid && result.invoice.recipients).toEqual([{ name: 'Kunde GmbH', country: 'DE', idType: '02', id: 'DE123456789' }]);
    expect(result.warnings.map((w) => w.code)).toEqual(['eu_vat_number_not_verified']);
  });

  it('takes amounts written with a plus sign, as the authority does, and writes them as every amount: "+121.00" is 121.00', () => {
    const result = validateInvoiceRequest(
      f1Request({
        breakdown: [{ regime_type: '01', operation_type: 'S1', base_amount: '+100', tax_rate: 21, tax_amount: '+21.0' }],
        total_amount: '+121.00',
        total_tax_amount: '+21',
      }),
      { today: TODAY },
    );
    if (!result.valid) throw new Error(JSON.stringify(result.errors));
    expect(result.invoice).toMatchObject({
      totalAmount: '121.00',
      totalTaxAmount: '21.00',
      lines: [expect.objectContaining({ baseAmount: '100.00', taxAmount: '21.00' })],
    });
  });

  it('produces an invoice the record builder turns into a hashed RegistroAlta', () => {
    const result = validateInvoiceRequest(f1Request(), { today: TODAY });
    if (!result.valid) throw new Error(JSON.stringify(result.errors));
    const record = buildRegistrationRecord({
      invoice: result.invoice,
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
        IndicadorMultiplesOT: 'S',
      },
      generatedAt: '2026-11-20T10:00:00+01:00',
    });
    expect(record.id).toEqual({ issuerNif: '89890001K', invoiceNumber: 'A-2026/0001', invoiceDate: '20-11-2026' });
    expect(record.total).toBe('121.00');
    expect(record.hash).toMatch(/^[0-9A-F]{64}$/);
  });
});

describe('validateInvoiceRequest: shape and formats', () => {
  it.each([[null], [[]], ['text'], [42]])('refuses a body that is not an object: %p', (body) => {
    expect(errorsOf(body)).toEqual([':invalid_body']);
  });

  it('reports every missing mandatory field at once', () => {
    expect(errorsOf({})).toEqual([
      'invoice_type:required',
      'invoice_date:required',
      'taxpayer_id:required',
      'computer_system_id:required',
      'invoice_number:required',
      'description:required',
      'breakdown:required',
      'total_amount:required',
      'total_tax_amount:required',
    ]);
  });

  it('refuses unknown fields wherever they appear', () => {
    const body = f1Request({
      currency: 'EUR',
      recipient: { name: 'Cliente SL', nif: 'B85905495', email: 'a@b.es' },
      breakdown: [{ regime_type: '01', operation_type: 'S1', base_amount: 100, tax_rate: 21, tax_amount: 21, discount: 0 }],
    });
    expect(errorsOf(body)).toEqual(['currency:unknown_field', 'recipient.email:unknown_field', 'breakdown[0].discount:unknown_field']);
  });

  it.each([
    ['taxpayer_id', 'not-a-uuid', 'taxpayer_id:invalid_uuid'],
    ['invoice_number', 'A'.repeat(61), 'invoice_number:invalid_length'],
    ['invoice_number', 'A<1>', 'invoice_number:reserved_characters'],
    ['invoice_number', 'Factura nº 1', 'invoice_number:invalid_characters'],
    ['invoice_number', 'A=1', 'invoice_number:reserved_characters'],
    ['invoice_number', 12, 'invoice_number:invalid_type'],
    ['description', 'x'.repeat(501), 'description:invalid_length'],
    ['description', '   ', 'description:invalid_length'],
    ['description', 'bell\u0007', 'description:invalid_characters'],
    ['invoice_type', 'F4', 'invoice_type:invalid_code'],
    ['invoice_date', '2026-02-30', 'invoice_date:invalid_date'],
    ['total_amount', 0.1 + 0.2, 'total_amount:invalid_amount'],
    ['total_amount', '1e3', 'total_amount:invalid_amount'],
    ['total_tax_amount', '021.00', 'total_tax_amount:invalid_amount'],
    ['breakdown', [], 'breakdown:invalid_length'],
    ['breakdown', 'lines', 'breakdown:invalid_type'],
  ])('refuses %s = %p', (field, value, expected) => {
    expect(errorsOf(f1Request({ [field]: value }))).toContain(expected);
  });

  it('carries the authority code of the rule when there is one', () => {
    expect(errorAt(f1Request({ invoice_number: 'A"1' }), 'invoice_number')).toMatchObject({
      code: 'reserved_characters',
      authority_code: 1287,
    });
    expect(errorAt(f1Request({ invoice_number: 'Nº 1' }), 'invoice_number')).toMatchObject({ authority_code: 1130 });
    expect(errorAt(f1Request({ invoice_type: 'X1' }), 'invoice_type')).toMatchObject({ authority_code: 1106 });
    expect(errorAt(f1Request({ description: undefined }), 'description')).toMatchObject({ code: 'required', authority_code: 4102 });
    expect(errorAt(f1Request({ total_amount: '1234567890123' }), 'total_amount')).toMatchObject({ authority_code: 1267 });
    expect(errorAt(f1Request({ total_tax_amount: 'x' }), 'total_tax_amount')).toMatchObject({ authority_code: 1100 });
  });

  it('counts text lengths in characters as the schema does, not in UTF-16 units', () => {
    const emoji = '\u{1F600}';
    expect(errorsOf(f1Request({ description: emoji.repeat(300) }))).toEqual([]);
    expect(errorsOf(f1Request({ description: emoji.repeat(500) }))).toEqual([]);
    expect(errorsOf(f1Request({ description: emoji.repeat(501) }))).toEqual(['description:invalid_length']);
  });

  it('refuses more than 12 breakdown lines', () => {
    const line = { regime_type: '01', operation_type: 'S1', base_amount: 1, tax_rate: 21, tax_amount: 0.21 };
    expect(errorAt(f1Request({ breakdown: Array(13).fill(line) }), 'breakdown')).toMatchObject({
      code: 'invalid_length',
      authority_code: 4113,
    });
  });

  it('collects errors from every layer in one answer', () => {
    const body = f1Request({
      invoice_date: '2030-01-01',
      recipient: undefined,
      breakdown: [{ regime_type: '01', operation_type: 'S1', base_amount: 100, tax_rate: 12, tax_amount: 21 }],
      total_amount: 500,
    });
    expect(errorsOf(body)).toEqual(
      expect.arrayContaining(['invoice_date:invoice_date_in_future', 'breakdown[0].tax_rate:invalid_vat_rate', 'recipient:required']),
    );
    expect(warningsOf(body)).toContain('total_amount:total_mismatch');
  });
});
