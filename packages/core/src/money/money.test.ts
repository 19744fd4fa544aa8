import { centsApart, formatCents, formatRate, parseAmount, parseRate, percentOf } from '.';

describe('parseAmount', () => {
  it.each([
    ['12.10', 1210n, '12.10'],
    ['12.1', 1210n, '12.10'],
    ['12', 1200n, '12.00'],
    ['0', 0n, '0.00'],
    ['0.05', 5n, '0.05'],
    ['-5', -500n, '-5.00'],
    ['-0.01', -1n, '-0.01'],
    ['-0', 0n, '0.00'],
    // A plus sign, as the authority's schema allows it; the literal is written as the service writes amounts.
    ['+121.00', 12100n, '121.00'],
    ['+0.5', 50n, '0.50'],
    ['+0', 0n, '0.00'],
    ['999999999999.99', 99999999999999n, '999999999999.99'],
    ['-999999999999.99', -99999999999999n, '-999999999999.99'],
  ])('accepts the string %s', (input, cents, literal) => {
    expect(parseAmount(input)).toEqual({ ok: true, cents, literal });
  });

  it.each([
    [12.1, 1210n, '12.10'],
    [241.4, 24140n, '241.40'],
    [0.1, 10n, '0.10'],
    [-5, -500n, '-5.00'],
    [123.45, 12345n, '123.45'],
    [999999999999.99, 99999999999999n, '999999999999.99'],
    [1.005, undefined, undefined],
  ])('reads the JSON number %p through its shortest text', (input, cents, literal) => {
    const parsed = parseAmount(input);
    if (cents === undefined) expect(parsed).toEqual({ ok: false });
    else expect(parsed).toEqual({ ok: true, cents, literal });
  });

  it.each([
    '',
    ' 12.10',
    '12.10 ',
    '++12.10',
    '+-1',
    '+01',
    '+',
    '01',
    '00.50',
    '12.',
    '.5',
    '12.345',
    '1e3',
    '1,5',
    'abc',
    '1000000000000',
    '--1',
    '0x10',
    '12.1.1',
    '-',
    '-.5',
    '1.-5',
    '１２',
    '12\n',
  ])('refuses the string %p', (input) => {
    expect(parseAmount(input)).toEqual({ ok: false });
  });

  it.each([[0.1 + 0.2], [NaN], [Infinity], [1e21], [1e-7], [null], [undefined], [true], [{}], [[1]], [10n]])('refuses %p', (input) => {
    expect(parseAmount(input)).toEqual({ ok: false });
  });
});

describe('the literal parseAmount and parseRate write', () => {
  // Written from the text's own digits; it must be what the cents (or hundredths) format to, for every form a client
  // may send: whole, one decimal, two, a zero, a sign, a JSON number.
  const texts = [
    '0',
    '-0',
    '+0',
    '0.0',
    '-0.00',
    '+12.10',
    '5',
    '0.5',
    '0.05',
    '-0.05',
    '12.1',
    '12.10',
    '-12.1',
    '999999999999.99',
    '-100',
  ];
  const numbers = [0, -0, 0.5, 0.05, -0.05, 12.1, 21, 7.5, -100, 999999999999.99, 123456.7];

  it.each([...texts, ...numbers])('amount %p', (input) => {
    const parsed = parseAmount(input);
    if (!parsed.ok) throw new Error(`refused ${String(input)}`);
    expect(parsed.literal).toBe(formatCents(parsed.cents));
  });

  it.each([...texts.filter((t) => !/^[+-]/.test(t) && t.length < 7), ...numbers.filter((n) => n >= 0 && n < 1000)])('rate %p', (input) => {
    const parsed = parseRate(input);
    if (!parsed.ok) throw new Error(`refused ${String(input)}`);
    expect(parsed.literal).toBe(formatRate(parsed.hundredths));
  });
});

describe('formatCents', () => {
  it.each([
    [0n, '0.00'],
    [1n, '0.01'],
    [-1n, '-0.01'],
    [1210n, '12.10'],
    [-500n, '-5.00'],
    [10000000000n, '100000000.00'],
  ])('%p -> %s', (cents, literal) => {
    expect(formatCents(cents)).toBe(literal);
  });
});

describe('parseRate', () => {
  it.each([
    ['21', 2100n, '21.00'],
    [21, 2100n, '21.00'],
    [7.5, 750n, '7.50'],
    ['5.2', 520n, '5.20'],
    ['0.26', 26n, '0.26'],
    [0, 0n, '0.00'],
    ['100', 10000n, '100.00'],
    ['999.99', 99999n, '999.99'],
  ])('accepts %p', (input, hundredths, literal) => {
    expect(parseRate(input)).toEqual({ ok: true, hundredths, literal });
  });

  it.each(['-21', '021', '1000', '21.005', '', '21%', ' 21', null, NaN, -1, 0.001])('refuses %p', (input) => {
    expect(parseRate(input)).toEqual({ ok: false });
  });

  it('formats hundredths with two decimals', () => {
    expect(formatRate(26n)).toBe('0.26');
    expect(formatRate(2100n)).toBe('21.00');
  });
});

describe('percentOf', () => {
  it('computes the tax of a base at a rate exactly, rounding half away from zero', () => {
    expect(percentOf(10000n, 2100n)).toBe(2100n); // 100.00 at 21% = 21.00
    expect(percentOf(1000n, 400n)).toBe(40n); // 10.00 at 4% = 0.40
    expect(percentOf(250n, 2100n)).toBe(53n); // 2.50 at 21% = 0.525 -> 0.53
    expect(percentOf(-250n, 2100n)).toBe(-53n);
    expect(percentOf(249n, 2100n)).toBe(52n); // 0.5229 -> 0.52
    expect(percentOf(99999999999999n, 2100n)).toBe(21000000000000n); // no float drift at the top of the range
  });

  it('measures the distance between two amounts', () => {
    expect(centsApart(100n, 1100n)).toBe(1000n);
    expect(centsApart(-100n, 100n)).toBe(200n);
  });
});
