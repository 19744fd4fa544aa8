import fc from 'fast-check';
import Joi from 'joi';
import { f1Request } from '@vf/core/testing';
import { invoiceRequestSchema } from '../invoices/invoice-request-schema';
import { compileShapePrecheck } from './shape-precheck';

const precheck = compileShapePrecheck(invoiceRequestSchema)!;
const joiAccepts = (body: unknown) => invoiceRequestSchema.validate(body, { abortEarly: true }).error === undefined;

const foreign = { name: 'Client Ltd', country: 'GB', id_type: '04', id: 'X1234567' };
/** Bodies of the documented shape, touching every part of it. */
const shapely: Record<string, unknown>[] = [
  f1Request(),
  f1Request({ recipient: foreign, operation_date: '2026-11-19', simplified_art_72_73: false, coupon: null }),
  f1Request({ recipient: null, recipients: [{ name: 'Uno SL', nif: 'B85905495' }, foreign] }),
  f1Request({ issued_by: 'third_party', third_party: { name: 'Gestoría SL', nif: 'B85905495' } }),
  f1Request({
    invoice_type: 'R1',
    rectification_type: 'S',
    rectified_base_amount: '100.00',
    rectified_tax_amount: 21,
    rectified_surcharge_amount: null,
    corrected_invoices: [{ invoice_number: 'A-1', invoice_date: '2026-11-01' }],
  }),
  f1Request({
    invoice_type: 'F3',
    substituted_invoices: [{ invoice_number: 'T-1', invoice_date: '2026-11-01' }],
    breakdown: [{ base_amount: '-0.50', cost_base_amount: null, tax_rate: '21.00', tax_amount: '-0.11', surcharge_rate: null }],
    total_amount: '-0.61',
    total_tax_amount: '-0.11',
  }),
  // Amounts with a plus sign, as the authority's schema writes them.
  f1Request({ breakdown: [{ base_amount: '+100', tax_rate: 21, tax_amount: '+21.00' }], total_amount: '+121.00', total_tax_amount: '+21' }),
];

// Values that joi and JSON Schema have been known to judge differently: empty and astral strings, lengths at the
// limits in characters and in UTF-16 units, unsafe numbers, UUIDs in joi's other forms, strings joi converts.
const odd = fc.constantFrom(
  '',
  ' ',
  '😀',
  'a😀',
  'x'.repeat(59) + '😀',
  '😀'.repeat(30),
  'ñ'.repeat(500),
  '😀'.repeat(250),
  'x'.repeat(501),
  'GBR',
  'G',
  '01',
  '001',
  'true',
  '12',
  '1e5',
  '+121.00',
  '+-1',
  '100.001',
  '2026-11-20T00:00:00Z',
  '{3F1C2A4E-8A0B-4C7E-9F51-1D2E3F4A5B6C}',
  '3F1C2A4E8A0B4C7E9F511D2E3F4A5B6C',
  '3F1C2A4E:8A0B:4C7E:9F51:1D2E3F4A5B6C',
  'urn:uuid:3f1c2a4e-8a0b-4c7e-9f51-1d2e3f4a5b6c',
  2 ** 53,
  2 ** 53 - 1,
  -(2 ** 53),
  1e300,
  -0,
  0.1,
  null,
  true,
  [],
  {},
  [{}],
);
const leaf = fc.oneof(
  odd,
  fc.string({ maxLength: 70 }),
  fc.string({ unit: 'binary', maxLength: 70 }),
  fc.double(),
  fc.integer(),
  fc.boolean(),
);
const value = fc.oneof(leaf, fc.array(leaf, { maxLength: 2 }), fc.dictionary(fc.string({ maxLength: 8 }), leaf, { maxKeys: 2 }));

/** Every place of a body where a value sits: ['recipient', 'name'], ['breakdown', 0, 'tax_rate'], ... */
function places(node: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (node === null || typeof node !== 'object') return [at];
  const inner = Object.entries(node).flatMap(([key, child]) => places(child, [...at, Array.isArray(node) ? Number(key) : key]));
  return [...(at.length > 0 ? [at] : []), ...inner];
}

function withValueAt(body: unknown, place: (string | number)[], v: unknown): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let node = copy;
  for (const key of place.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[place[place.length - 1]] = v;
  return copy;
}

/** A body of the documented shape with one value replaced, one key removed or one key added, anywhere in it. */
const bent = fc
  .constantFrom(...shapely)
  .chain((body) =>
    fc.tuple(
      fc.constant(body),
      fc.constantFrom(...places(body)),
      value,
      fc.constantFrom('replace', 'remove', 'add'),
      fc.string({ maxLength: 8 }),
    ),
  )
  .map(([body, place, v, how, key]) => {
    if (how === 'replace') return withValueAt(body, place, v);
    const parentPlace = place.slice(0, -1);
    const copy = structuredClone(body) as Record<string, unknown>;
    const parent = parentPlace.reduce<Record<string | number, unknown>>((n, k) => n[k] as Record<string | number, unknown>, copy);
    if (how === 'remove') delete parent[place[place.length - 1]];
    else if (!Array.isArray(parent)) parent[key] = v;
    return copy;
  });

describe('the shape precheck', () => {
  it('passes bodies of the documented shape, so they need no joi run', () => {
    for (const body of shapely) {
      expect(joiAccepts(body)).toBe(true);
      expect(precheck(body)).toBe(true);
    }
  });

  it('never passes a body joi refuses, however the body is bent', () => {
    fc.assert(
      fc.property(bent, (body) => {
        if (precheck(body)) expect(joiAccepts(body)).toBe(true);
      }),
      { numRuns: 5_000 },
    );
  });

  it('refuses lengths joi refuses in UTF-16 units, though they are within the limit in characters', () => {
    const body = f1Request({ invoice_number: `${'x'.repeat(59)}😀` });
    expect(joiAccepts(body)).toBe(false);
    expect(precheck(body)).toBe(false);
  });

  it('is not made for a schema using what it cannot mirror exactly', () => {
    expect(compileShapePrecheck(Joi.object({ email: Joi.string().email() }))).toBeUndefined();
    expect(compileShapePrecheck(Joi.object({ name: Joi.string() }).unknown())).toBeUndefined();
    expect(compileShapePrecheck(Joi.object({ name: Joi.string().allow('') }))).toBeUndefined();
    expect(compileShapePrecheck(Joi.object({ name: Joi.string().pattern(/^a$/i) }))).toBeUndefined();
    expect(compileShapePrecheck(Joi.object({ n: Joi.number().integer() }))).toBeUndefined();
    expect(compileShapePrecheck(Joi.object({ a: Joi.string(), b: Joi.string() }).xor('a', 'b'))).toBeUndefined();
    expect(compileShapePrecheck(Joi.object({ name: Joi.string() }))).toBeDefined();
  });
});
