import { madridToday, validateInvoiceRequest, validateSpanishNif } from '@vf/core';
import { benchNif } from '../workloads/tenant';
import { invoiceFactory, madridDate } from './invoice-body';

const tenant = {
  apiKey: 'k',
  systemId: '7d9e8f10-1a2b-4c3d-8e4f-5a6b7c8d9e0f',
  taxpayerIds: ['3f1c2a4e-8a0b-4c7e-9f51-1d2e3f4a5b6c', '8a2c5595-4cd6-461f-a38a-b89e730a85c7'],
};

describe('invoiceFactory', () => {
  it('builds invoices the API validation accepts, dated today in Madrid', () => {
    const next = invoiceFactory(tenant, 'BENCH-wide');
    const body = next();
    expect(validateInvoiceRequest(body, { today: madridToday() })).toMatchObject({ valid: true });
    expect(body.invoice_date).toBe(madridToday());
    expect(body.breakdown).toEqual([expect.objectContaining({ tax_rate: 21, base_amount: 100, tax_amount: 21 })]);
  });

  it('numbers every invoice uniquely and takes the taxpayers in turn', () => {
    const next = invoiceFactory(tenant, 'BENCH-wide');
    const bodies = Array.from({ length: 4 }, next);
    expect(new Set(bodies.map((b) => b.invoice_number)).size).toBe(4);
    expect(bodies.map((b) => b.taxpayer_id)).toEqual([...tenant.taxpayerIds, ...tenant.taxpayerIds]);
  });
});

describe('madridDate', () => {
  it('is the Madrid calendar day, ahead of UTC late in the evening', () => {
    expect(madridDate(new Date('2026-11-23T23:30:00Z'))).toBe('2026-11-24');
    expect(madridDate(new Date('2026-07-01T21:59:00Z'))).toBe('2026-07-01');
    expect(madridDate(new Date('2026-07-01T22:00:00Z'))).toBe('2026-07-02');
  });
});

describe('benchNif', () => {
  it('gives well-formed, distinct NIFs', () => {
    const nifs = Array.from({ length: 200 }, (_, i) => benchNif(i));
    expect(nifs.every((nif) => validateSpanishNif(nif).valid)).toBe(true);
    expect(new Set(nifs).size).toBe(200);
  });
});
