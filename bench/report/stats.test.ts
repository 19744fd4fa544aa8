import { medianBy, percentile, ratio, summarizeLatencies } from './stats';

describe('percentile (nearest rank)', () => {
  it('reports a value a client actually saw, never an interpolation', () => {
    const sorted = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect(percentile(sorted, 50)).toBe(5);
    expect(percentile(sorted, 95)).toBe(10);
    expect(percentile(sorted, 99)).toBe(10);
    expect(percentile(sorted, 10)).toBe(1);
    expect(percentile(sorted, 11)).toBe(2);
  });

  it('puts one slow request out of a hundred at p99 and not at p95', () => {
    const sorted = [...Array.from({ length: 99 }, () => 1), 500];
    expect(percentile(sorted, 95)).toBe(1);
    expect(percentile(sorted, 99)).toBe(1);
    expect(percentile(sorted, 100)).toBe(500);
    const twoSlow = [...Array.from({ length: 98 }, () => 1), 400, 500];
    expect(percentile(twoSlow, 99)).toBe(400);
  });

  it('is null for no values and the only value for one', () => {
    expect(percentile([], 50)).toBeNull();
    expect(percentile([7], 99)).toBe(7);
  });
});

describe('summarizeLatencies', () => {
  it('sorts numerically (not as strings) and rounds to hundredths of a millisecond', () => {
    expect(summarizeLatencies([10.123, 9, 100, 2.5])).toEqual({ p50: 9, p95: 100, p99: 100, max: 100 });
    expect(summarizeLatencies([1.23456])).toEqual({ p50: 1.23, p95: 1.23, p99: 1.23, max: 1.23 });
  });

  it('has no figures for an empty run', () => {
    expect(summarizeLatencies([])).toEqual({ p50: null, p95: null, p99: null, max: null });
  });
});

describe('medianBy', () => {
  it('returns the real middle item (the lower one for an even count)', () => {
    const rounds = [{ rate: 300 }, { rate: 100 }, { rate: 200 }];
    expect(medianBy(rounds, (r) => r.rate)).toEqual({ rate: 200 });
    expect(medianBy([{ rate: 4 }, { rate: 1 }, { rate: 3 }, { rate: 2 }], (r) => r.rate)).toEqual({ rate: 2 });
    expect(medianBy([], (r: { rate: number }) => r.rate)).toBeNull();
  });
});

describe('ratio', () => {
  it('is null when a side is missing or the baseline is zero', () => {
    expect(ratio(368, 8237)).toBe(0.045);
    expect(ratio(1, 0)).toBeNull();
    expect(ratio(null, 5)).toBeNull();
    expect(ratio(5, undefined)).toBeNull();
  });
});
