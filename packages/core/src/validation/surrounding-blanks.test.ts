import { f1Request } from '../testing';
import { errorAt, TODAY } from './errors-of';
import { validateInvoiceRequest } from './validate-invoice-request';

// No text that enters the record verbatim is changed without a word: only the ordinary spaces the authority itself
// removes on reception are trimmed; any other blank at an end is refused with the field's authority code.
const BLANKS: [string, string][] = [
  ['no-break space', '\u00a0'],
  ['en quad', '\u2000'],
  ['hair space', '\u200a'],
  ['ideographic space', '\u3000'],
  ['byte order mark', '\ufeff'],
  ['tab', '\t'],
  ['line feed', '\n'],
  ['carriage return', '\r'],
];

const foreign = (fields: Record<string, unknown>) => ({ name: 'Kunde GmbH', country: 'DE', id_type: '04', id: 'P1234567', ...fields });

describe.each(BLANKS)('a %s at an end', (_name, blank) => {
  it.each([
    ['invoice_number', { invoice_number: `F-1${blank}` }, 1130],
    ['invoice_number', { invoice_number: `${blank}F-1` }, 1130],
    [
      'corrected_invoices[0].invoice_number',
      { invoice_type: 'R1', corrected_invoices: [{ invoice_number: `F-0${blank}`, invoice_date: '2026-11-01' }] },
      1130,
    ],
    ['description', { description: `Consulting${blank}` }, 1100],
    ['recipient.name', { recipient: { name: `${blank}Cliente SL`, nif: 'B85905495' } }, 1100],
    ['recipient.name', { recipient: foreign({ name: `Kunde GmbH ${blank}` }) }, 1100],
    ['recipient.id', { recipient: foreign({ id: `P1234567${blank}` }) }, 1222],
  ])('is refused in %s with the authority code %s', (field, fields, code) => {
    expect(errorAt(f1Request(fields), field)).toMatchObject({ code: 'surrounding_blank', authority_code: code });
  });
});

it('names the refused character so the client can find it', () => {
  expect(errorAt(f1Request({ invoice_number: 'F-1\u00a0' }), 'invoice_number')?.message).toContain('U+00A0');
});

it('keeps a blank inside a text and trims only the ordinary spaces at the ends, as the authority does', () => {
  const result = validateInvoiceRequest(
    f1Request({
      invoice_number: ' F 1  ',
      description: '  Consulting\u00a0services\n2026 ',
      recipient: { name: 'Cliente\tSL ', nif: 'B85905495' },
    }),
    { today: TODAY },
  );
  if (!result.valid) throw new Error(JSON.stringify(result.errors));
  expect(result.invoice).toMatchObject({
    invoiceNumber: 'F 1',
    description: 'Consulting\u00a0services\n2026',
    recipients: [{ name: 'Cliente\tSL', nif: 'B85905495' }],
  });
});
