import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REQUEST_FIELDS, REQUEST_MAX_CHARACTERS, validateInvoiceRequest } from '@vf/core';
import { f1Request } from '@vf/core/testing';
import { requestTypeSource } from '../http/request-type-source';
import { invoiceRequestSchema } from './invoice-request-schema';

// The invoice request's shape is written once, in invoice-request-schema.ts. Its TypeScript types and field lists,
// which the authority's rules in @vf/core read requests through, are generated from it into core; this test fails
// when they are out of date, and with UPDATE_GENERATED=1 writes them.
const GENERATED = path.resolve(__dirname, '../../../../packages/core/src/validation/invoice-request.generated.ts');
const HEADER = `// Generated from the invoice request's joi schema (apps/api/src/invoices/invoice-request-schema.ts), the one
// description of the request's shape. Do not edit: change the schema, then run
// UPDATE_GENERATED=1 npx jest apps/api/src/invoices/invoice-request-types.test.ts`;
const NAMES = {
  '': 'InvoiceRequest',
  'recipient|0': 'SpanishPartyRequest',
  'recipient|1': 'ForeignPartyRequest',
  'corrected_invoices[]': 'InvoiceReferenceRequest',
  'breakdown[]': 'BreakdownLineRequest',
};

/** The source as the repository formats it (prettier's own command: its module loads only as ESM under jest). */
function generated(): string {
  const source = requestTypeSource(invoiceRequestSchema, NAMES, HEADER);
  const prettier = require.resolve('prettier/bin/prettier.cjs');
  return execFileSync(process.execPath, [prettier, '--stdin-filepath', GENERATED], { input: source, encoding: 'utf8' });
}

test("core's request types and field lists are generated from the current schema", () => {
  const expected = generated();
  if (process.env.UPDATE_GENERATED === '1') writeFileSync(GENERATED, expected);
  expect(readFileSync(GENERATED, 'utf8')).toBe(expected);
});

const unknownFields = (body: unknown) => {
  const result = validateInvoiceRequest(body, { today: '2026-11-22' });
  return result.valid ? [] : result.errors.filter((e) => e.code === 'unknown_field').map((e) => e.field);
};
const joiRefuses = (body: unknown) => invoiceRequestSchema.validate(body).error !== undefined;

test("the authority's rules take exactly the fields the schema names, at every level of the request", () => {
  const line = { operation_type: 'S1', base_amount: 100 };
  const foreign = { name: 'Client', country: 'FR', id_type: '03', id: 'X1' };
  const reference = { invoice_number: 'A-1', invoice_date: '2026-11-01' };
  const everyField = [
    ...REQUEST_FIELDS.InvoiceRequest.map((field) => f1Request({ [field]: null })),
    ...REQUEST_FIELDS.BreakdownLineRequest.map((field) => f1Request({ breakdown: [{ ...line, [field]: null }] })),
    ...REQUEST_FIELDS.ForeignPartyRequest.map((field) => f1Request({ recipient: { ...foreign, [field]: null } })),
    ...REQUEST_FIELDS.InvoiceReferenceRequest.map((field) => f1Request({ corrected_invoices: [{ ...reference, [field]: null }] })),
  ];
  for (const body of everyField) expect({ body, unknown: unknownFields(body) }).toEqual({ body, unknown: [] });
  const extra = [
    f1Request({ currency: 'EUR' }),
    f1Request({ breakdown: [{ ...line, discount: 1 }] }),
    f1Request({ recipient: { name: 'Cliente SL', nif: 'B85905495', email: 'a@b.es' } }),
    f1Request({ substituted_invoices: [{ ...reference, amount: 1 }] }),
  ];
  expect(extra.map(unknownFields)).toEqual([
    ['currency'],
    ['breakdown[0].discount'],
    ['recipient.email'],
    ['substituted_invoices[0].amount'],
  ]);
  // joi, which the OpenAPI document and the precheck are made from, refuses the same bodies, and only for that field.
  expect([f1Request(), ...extra].map(joiRefuses)).toEqual([false, true, true, true, true]);
});

test('a text is refused by the authority’s rules exactly from the length the schema documents', () => {
  const lengthErrors = (body: unknown) => {
    const result = validateInvoiceRequest(body, { today: '2026-11-22' });
    return result.valid ? [] : result.errors.filter((e) => e.code === 'invalid_length').map((e) => e.field);
  };
  const foreign = (fields: Record<string, string>) => ({
    recipient: { name: 'Client', country: 'FR', id_type: '03', id: 'X1', ...fields },
  });
  const texts: [string, (text: string) => Record<string, unknown>, number][] = [
    ['description', (text) => ({ description: text }), REQUEST_MAX_CHARACTERS.InvoiceRequest.description],
    ['recipient.name', (text) => foreign({ name: text }), REQUEST_MAX_CHARACTERS.ForeignPartyRequest.name],
    ['recipient.id', (text) => foreign({ id: text }), REQUEST_MAX_CHARACTERS.ForeignPartyRequest.id],
  ];
  for (const [field, body, max] of texts) {
    const longest = f1Request(body('x'.repeat(max)));
    const tooLong = f1Request(body('x'.repeat(max + 1)));
    expect({ field, longest: lengthErrors(longest), tooLong: lengthErrors(tooLong) }).toEqual({ field, longest: [], tooLong: [field] });
    expect({ field, joi: [joiRefuses(longest), joiRefuses(tooLong)] }).toEqual({ field, joi: [false, true] });
  }
});
