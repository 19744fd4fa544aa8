import { invoicesFromCsv } from './read-invoices.ts';

test('a CSV row becomes an invoice: dotted headers nest, empty cells are left out, flags are booleans', () => {
  const csv =
    '\uFEFFinvoice_number;invoice_date;recipient.name;recipient.nif;breakdown.0.base_amount;breakdown.0.tax_rate;coupon;description\r\n' +
    'F-1;2026-11-20;"Cliente; SL";B85905495;100.00;21;false;\r\n';
  expect(invoicesFromCsv(csv)).toEqual([
    {
      invoice_number: 'F-1',
      invoice_date: '2026-11-20',
      recipient: { name: 'Cliente; SL', nif: 'B85905495' },
      breakdown: [{ base_amount: '100.00', tax_rate: '21' }],
      coupon: false,
    },
  ]);
});

test('commas separate the fields when the header has no semicolon', () => {
  expect(invoicesFromCsv('invoice_number,description\nF-2,"Sale, one"\n')).toEqual([{ invoice_number: 'F-2', description: 'Sale, one' }]);
});
