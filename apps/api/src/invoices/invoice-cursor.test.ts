import { decodeInvoiceCursor, encodeInvoiceCursor } from './invoice-cursor';

const id = '3f1c2a4e-8a0b-4c7e-9f51-1d2e3f4a5b6c';
const forge = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

test('a cursor round-trips the value of each sort column as PostgreSQL writes it', () => {
  const cases = [
    { sort: '-created_at', value: '2025-01-01 10:00:00.123456+00' },
    { sort: 'created_at', value: '2025-03-30 01:00:00.5+05:30' },
    { sort: 'invoice_date', value: '2025-02-28' },
    { sort: '-invoice_number', value: 'A-2025/001; "x"' },
    { sort: '-total_amount', value: '-121.00' },
    { sort: 'total_amount', value: '1210.50' },
  ] as const;
  for (const { sort, value } of cases)
    expect(decodeInvoiceCursor(encodeInvoiceCursor({ sort, value, id }), sort)).toEqual({ sort, value, id });
});

test('a cursor for another sort, forged or damaged, is refused before it reaches SQL', () => {
  expect(decodeInvoiceCursor(encodeInvoiceCursor({ sort: 'invoice_date', value: '2025-02-28', id }), '-invoice_date')).toBeUndefined();
  const cases = [
    ['invoice_number', 'not-base64-json'],
    ['invoice_date', forge(['invoice_date', "2025-02-28'); DROP TABLE invoices; --", id])],
    ['created_at', forge(['created_at', '2025-13-45 99:00:00+00', id])],
    // Days that do not exist and offsets PostgreSQL refuses: the shape is right, the value is not.
    ['invoice_date', forge(['invoice_date', '2025-02-30', id])],
    ['created_at', forge(['created_at', '2025-02-30 10:00:00+00', id])],
    ['created_at', forge(['created_at', '2025-02-28 10:00:00+20', id])],
    ['invoice_number', forge(['invoice_number', '', id])],
    ['invoice_number', forge(['invoice_number', 'A-1', 'not-a-uuid'])],
    ['invoice_number', forge(['invoice_number', 'A-1', id, 'extra'])],
    ['total_amount', forge(['total_amount', '1e9', id])],
    ['total_amount', forge(['total_amount', '12.1', id])],
    ['total_amount', forge(['total_amount', '121.00)); --', id])],
  ] as const;
  for (const [sort, cursor] of cases) expect(decodeInvoiceCursor(cursor, sort)).toBeUndefined();
});
