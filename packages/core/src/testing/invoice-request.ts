/**
 * The one invoice request fixture: a valid F1 (100.00 at 21% VAT, 121.00 in all) as a client sends it to
 * `POST /api/v1/invoices`. Callers override what they need (ids, number, date) or bend one field to test a rule.
 */
export function f1Request(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    taxpayer_id: '3F1C2A4E-8A0B-4C7E-9F51-1D2E3F4A5B6C',
    computer_system_id: '7d9e8f10-1a2b-4c3d-8e4f-5a6b7c8d9e0f',
    invoice_number: 'A-2026/0001',
    invoice_date: '2026-11-20',
    invoice_type: 'F1',
    description: 'Servicios de consultoría',
    recipient: { name: 'Cliente SL', nif: 'B85905495' },
    breakdown: [{ tax_type: '01', regime_type: '01', operation_type: 'S1', base_amount: 100, tax_rate: 21, tax_amount: 21 }],
    total_amount: 121,
    total_tax_amount: 21,
    ...overrides,
  };
}

/** The fixture with a single breakdown line; the caller recomputes the totals when they matter. */
export function withLine(line: Record<string, unknown>, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return f1Request({ breakdown: [line], ...overrides });
}
