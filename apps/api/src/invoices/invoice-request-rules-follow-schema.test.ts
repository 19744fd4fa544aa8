import {
  REQUEST_CODES,
  REQUEST_FORMS,
  REQUEST_INVALID_CODES,
  REQUEST_LISTS,
  REQUEST_MAX_CHARACTERS,
  REQUEST_REQUIRED,
  validateInvoiceRequest,
  type ValidationIssue,
} from '@vf/core';
import { f1Request } from '@vf/core/testing';
import { ApiError } from '../errors/api-error';
import { compileShapePrecheck } from '../http/shape-precheck';
import { invoiceRequestSchema } from './invoice-request-schema';
import { validateInvoiceBody } from './invoice-registration-service';

// The authority's rules in @vf/core take the request's required fields, each field's form, code lists, the invoice
// number's length and each list's sizes, with the authority's numbers, from invoice-request.generated.ts, which is generated from the joi schema
// (invoice-request-types.test.ts keeps it current). These tests hold the rules to every entry of those tables, so a
// change to the schema changes what the rules refuse, and with which number, at once.

const TODAY = '2026-11-22';
const errorsAt = (body: unknown, field: string): ValidationIssue[] => {
  const result = validateInvoiceRequest(body, { today: TODAY });
  return result.valid ? [] : result.errors.filter((e) => e.field === field);
};
/** joi's refusals of `body`, as `path:type`. */
const joiSays = (body: unknown) =>
  (invoiceRequestSchema.validate(body, { abortEarly: false }).error?.details ?? []).map((d) => `${d.path.join('.')}:${d.type}`);
const without = (object: Record<string, unknown>, key: string) => Object.fromEntries(Object.entries(object).filter(([k]) => k !== key));

const line = { tax_type: '01', regime_type: '01', operation_type: 'S1', base_amount: 100, tax_rate: 21, tax_amount: 21 };
const foreign = { name: 'Client Ltd', country: 'US', id_type: '04', id: 'X1' };
const reference = { invoice_number: 'A-2026/0000', invoice_date: '2026-11-01' };

/** For each object of the request: a body that leaves `key` out of it, and the path (rules', joi's) of the field. */
const leftOut: Record<keyof typeof REQUEST_REQUIRED, (key: string) => [Record<string, unknown>, string, string]> = {
  InvoiceRequest: (key) => [without(f1Request(), key), key, key],
  BreakdownLineRequest: (key) => [f1Request({ breakdown: [without(line, key)] }), `breakdown[0].${key}`, `breakdown.0.${key}`],
  // The third party: a recipient's name left out is the authority's own case, 1283 (below).
  ForeignPartyRequest: (key) => [
    f1Request({ issued_by: 'third_party', third_party: without(foreign, key) }),
    `third_party.${key}`,
    `third_party.${key}`,
  ],
  SpanishPartyRequest: (key) => [
    f1Request({ issued_by: 'third_party', third_party: without({ name: 'Tercero SL', nif: 'B85905495' }, key) }),
    `third_party.${key}`,
    `third_party.${key}`,
  ],
  InvoiceReferenceRequest: (key) => [
    f1Request({ invoice_type: 'R1', corrected_invoices: [without(reference, key)] }),
    `corrected_invoices[0].${key}`,
    `corrected_invoices.0.${key}`,
  ],
};

test('every field the schema requires is refused by the rules when left out, with the number the schema gives', () => {
  const cases = Object.entries(REQUEST_REQUIRED).flatMap(([object, fields]) =>
    Object.entries(fields as Record<string, number | null>)
      // A Spanish party without its NIF is a party without an identification: a rule of its own (4102 on the party).
      .filter(([key]) => !(object === 'SpanishPartyRequest' && key === 'nif'))
      .map(([key, missing]) => ({ object, key, missing })),
  );
  expect(cases.length).toBeGreaterThanOrEqual(16);
  for (const { object, key, missing } of cases) {
    const [body, field, joiPath] = leftOut[object as keyof typeof REQUEST_REQUIRED](key);
    const refused = errorsAt(body, field).map(({ code, authority_code }) => ({ code, authority_code }));
    const expected = missing === null ? { code: 'required' } : { code: 'required', authority_code: missing };
    expect({ object, key, refused }).toEqual({ object, key, refused: [expected] });
    // joi refuses the body there, or on the party the field is part of (a party is one of two forms: alternatives).
    const joiPaths = joiSays(body).map((said) => said.slice(0, said.lastIndexOf(':')));
    expect({ object, key, joi: joiPaths.some((path) => joiPath === path || joiPath.startsWith(`${path}.`)) }).toEqual({
      object,
      key,
      joi: true,
    });
  }
  // The counterparty's name is the authority's own case.
  const [unnamed] = leftOut.ForeignPartyRequest('name');
  expect(
    errorsAt({ ...unnamed, issued_by: undefined, third_party: undefined, recipient: without(foreign, 'name') }, 'recipient.name'),
  ).toEqual([expect.objectContaining({ code: 'required', authority_code: 1283 })]);
});

test('a code takes exactly the values of its list in the schema; any other is refused with the number the schema gives', () => {
  const codes = Object.entries(REQUEST_CODES.InvoiceRequest) as [
    keyof typeof REQUEST_CODES.InvoiceRequest,
    { values: readonly string[]; words: string },
  ][];
  expect(codes.map(([key]) => key).sort()).toEqual(['invoice_type', 'issued_by', 'rectification_type']);
  for (const [key, { values, words }] of codes) {
    for (const value of values) {
      expect({ key, value, refused: errorsAt(f1Request({ [key]: value }), key).filter((e) => e.code === 'invalid_code') }).toEqual({
        key,
        value,
        refused: [],
      });
      expect({ key, value, joi: joiSays(f1Request({ [key]: value })).filter((e) => e.startsWith(`${key}:`)) }).toEqual({
        key,
        value,
        joi: [],
      });
    }
    for (const other of ['X', `${values[0]}X`, 1]) {
      const body = f1Request({ [key]: other });
      expect(errorsAt(body, key).filter((e) => e.code === 'invalid_code')).toEqual([
        {
          field: key,
          code: 'invalid_code',
          message: `${key} must be one of ${words}.`,
          authority_code: REQUEST_INVALID_CODES.InvoiceRequest[key],
        },
      ]);
      expect(joiSays(body)).toContain(`${key}:any.only`);
    }
  }
});

test('an invoice number is refused from the length the schema gives, with the number it gives', () => {
  const numbers: [string, (text: string) => Record<string, unknown>, number, number][] = [
    [
      'invoice_number',
      (text) => f1Request({ invoice_number: text }),
      REQUEST_MAX_CHARACTERS.InvoiceRequest.invoice_number,
      REQUEST_INVALID_CODES.InvoiceRequest.invoice_number,
    ],
    [
      'corrected_invoices[0].invoice_number',
      (text) => f1Request({ invoice_type: 'R1', corrected_invoices: [{ ...reference, invoice_number: text }] }),
      REQUEST_MAX_CHARACTERS.InvoiceReferenceRequest.invoice_number,
      REQUEST_INVALID_CODES.InvoiceReferenceRequest.invoice_number,
    ],
  ];
  for (const [field, body, max, authorityCode] of numbers) {
    expect({ field, longest: errorsAt(body('A'.repeat(max)), field) }).toEqual({ field, longest: [] });
    expect(errorsAt(body('A'.repeat(max + 1)), field)).toEqual([
      { field, code: 'invalid_length', message: `${field} must have between 1 and ${max} characters.`, authority_code: authorityCode },
    ]);
    expect(joiSays(body('A'.repeat(max + 1)))).toContain(`${field.replace('[0]', '.0')}:string.max`);
  }
});

/** A value of the wrong type and one of the right type outside the form, for each form: what the rules answer. */
const FORMS: Record<string, { wrong: unknown; outside: (max: number) => unknown; code: string; outsideCode: string }> = {
  uuid: { wrong: 12, outside: () => '3f1c2a4e-8a0b-4c7e-9f51', code: 'invalid_uuid', outsideCode: 'invalid_uuid' },
  date: { wrong: 20261120, outside: () => '2026-02-30', code: 'invalid_date', outsideCode: 'invalid_date' },
  text: { wrong: 12, outside: (max) => 'x'.repeat(max + 1), code: 'invalid_type', outsideCode: 'invalid_length' },
  flag: { wrong: 'yes', outside: () => 1, code: 'invalid_type', outsideCode: 'invalid_type' },
  amount: { wrong: {}, outside: () => '1234567890123', code: 'invalid_amount', outsideCode: 'invalid_amount' },
  rate: { wrong: {}, outside: () => '1000', code: 'invalid_rate', outsideCode: 'invalid_rate' },
  code: { wrong: 1, outside: () => 'X', code: 'invalid_code', outsideCode: 'invalid_code' },
  invoice_number: { wrong: 12, outside: (max) => 'A'.repeat(max + 1), code: 'invalid_type', outsideCode: 'invalid_length' },
};
// Fields the authority's rules read against the authority's own lists or checks rather than by their form in the schema.
const READ_BY_THE_AUTHORITYS_LISTS = new Set([
  'BreakdownLineRequest.tax_type',
  'BreakdownLineRequest.regime_type',
  'BreakdownLineRequest.operation_type',
  'SpanishPartyRequest.nif',
  'ForeignPartyRequest.country',
  'ForeignPartyRequest.id_type',
]);
/** For each object of the request: a body with `value` in its field `key`, and the field's path (rules', joi's). */
const placed: Record<keyof typeof REQUEST_FORMS, (key: string, value: unknown) => [Record<string, unknown>, string, string]> = {
  InvoiceRequest: (key, value) => [f1Request({ invoice_type: 'R1', [key]: value }), key, key],
  BreakdownLineRequest: (key, value) => [
    f1Request({ breakdown: [{ ...line, [key]: value }] }),
    `breakdown[0].${key}`,
    `breakdown.0.${key}`,
  ],
  ForeignPartyRequest: (key, value) => [f1Request({ recipient: { ...foreign, [key]: value } }), `recipient.${key}`, `recipient.${key}`],
  SpanishPartyRequest: (key, value) => [
    f1Request({ recipient: { name: 'Cliente SL', nif: 'B85905495', [key]: value } }),
    `recipient.${key}`,
    `recipient.${key}`,
  ],
  InvoiceReferenceRequest: (key, value) => [
    f1Request({ invoice_type: 'R1', corrected_invoices: [{ ...reference, [key]: value }] }),
    `corrected_invoices[0].${key}`,
    `corrected_invoices.0.${key}`,
  ],
};

test('every field of one value is read by the form the schema gives it, and refused with the number the schema gives', () => {
  const cases = Object.entries(REQUEST_FORMS).flatMap(([object, forms]) =>
    Object.entries(forms as Record<string, string>)
      .filter(([key]) => !READ_BY_THE_AUTHORITYS_LISTS.has(`${object}.${key}`))
      .map(([key, form]) => ({ object: object as keyof typeof REQUEST_FORMS, key, form })),
  );
  expect(cases.length).toBeGreaterThanOrEqual(28);
  for (const { object, key, form } of cases) {
    const invalid = (REQUEST_INVALID_CODES[object] as Record<string, number | undefined>)[key];
    const max = (REQUEST_MAX_CHARACTERS[object] as Record<string, number | undefined>)[key] ?? 0;
    const { wrong, outside, code, outsideCode } = FORMS[form];
    // A value of the wrong type: 1100 (the schema's type) for a text or a number, else the field's own number.
    const typeCode = form === 'text' || form === 'invoice_number' || form === 'amount' || form === 'rate' ? 1100 : invalid;
    const [wrongBody, field, joiPath] = placed[object](key, wrong);
    const [outsideBody] = placed[object](key, outside(max));
    const answer = (body: unknown, expected: string) =>
      errorsAt(body, field)
        .filter((e) => e.code === expected)
        .map((e) => e.authority_code);
    expect({ object, key, form, wrong: answer(wrongBody, code) }).toEqual({ object, key, form, wrong: [typeCode] });
    expect({ object, key, form, outside: answer(outsideBody, outsideCode) }).toEqual({
      object,
      key,
      form,
      outside: [invalid ?? (form === 'uuid' ? undefined : 1100)],
    });
    // joi refuses a value of the wrong type there too, or on the party the field is part of (past the type, the rules
    // judge more than joi's form: a real calendar date, a UUID without braces).
    const joiPaths = joiSays(wrongBody).map((said) => said.slice(0, said.lastIndexOf(':')));
    expect({ object, key, joi: joiPaths.some((path) => joiPath === path || joiPath.startsWith(`${path}.`)) }).toEqual({
      object,
      key,
      joi: true,
    });
  }
});

/** A body whose list `key` holds `count` entries, each a valid one. */
const withList: Record<keyof typeof REQUEST_LISTS.InvoiceRequest, (count: number) => Record<string, unknown>> = {
  breakdown: (count) => f1Request({ breakdown: Array(count).fill(line) }),
  recipients: (count) => f1Request({ recipient: undefined, recipients: Array(count).fill(foreign) }),
  corrected_invoices: (count) => f1Request({ invoice_type: 'R1', corrected_invoices: Array(count).fill(reference) }),
  substituted_invoices: (count) => f1Request({ invoice_type: 'F3', substituted_invoices: Array(count).fill(reference) }),
};

test('each list is refused by the rules, joi and the precheck exactly outside the sizes the schema gives, with its numbers', () => {
  const precheck = compileShapePrecheck(invoiceRequestSchema);
  expect(precheck).toBeDefined();
  const lists = Object.entries(REQUEST_LISTS.InvoiceRequest) as [
    keyof typeof withList,
    (typeof REQUEST_LISTS.InvoiceRequest)[keyof typeof withList],
  ][];
  expect(lists.map(([key]) => key).sort()).toEqual(['breakdown', 'corrected_invoices', 'recipients', 'substituted_invoices']);
  for (const [key, { min, max, tooFew, tooMany }] of lists) {
    const sizes = [...(min > 0 ? [min - 1] : []), min, max, max + 1];
    for (const size of sizes) {
      const body = withList[key](size);
      const outside = size < min || size > max;
      const refused = errorsAt(body, key).map((e) => e.authority_code);
      expect({ key, size, refused }).toEqual({ key, size, refused: outside ? [(size < min ? tooFew : tooMany) ?? 1100] : [] });
      const joi = joiSays(body).filter((said) => said.startsWith(`${key}:`));
      expect({ key, size, joi }).toEqual({ key, size, joi: outside ? [`${key}:array.${size < min ? 'min' : 'max'}`] : [] });
      if (outside) expect({ key, size, precheck: precheck?.(body) }).toEqual({ key, size, precheck: false });
    }
  }
});

test('a breakdown of 13 lines is answered with the rules’ refusal alone: the authority’s 4113, not joi’s', () => {
  const body = withList.breakdown(REQUEST_LISTS.InvoiceRequest.breakdown.max + 1);
  let thrown: unknown;
  try {
    validateInvoiceBody(body, TODAY);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ApiError);
  expect((thrown as ApiError).options.errors).toEqual([
    {
      field: 'breakdown',
      code: 'invalid_length',
      message: 'breakdown must have between 1 and 12 lines (one per tax, regime and rate combination).',
      authority_code: 4113,
    },
  ]);
});
