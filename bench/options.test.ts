import { parseBenchOptions, perWorkload } from './options';

describe('parseBenchOptions', () => {
  it('runs every workload in both modes by default, bounded by duration', () => {
    const opts = parseBenchOptions([]);
    expect(opts.workloads).toEqual(['seq', 'hot', 'wide', 'paced', 'bulk', 'seq-nvf', 'bulk-nvf', 'submission', 'scale', 'census']);
    expect([opts.censusRows, opts.censusRegistrations]).toEqual([10_000, 200]);
    expect(opts.modes).toEqual(['api-alone', 'worker-running']);
    expect(opts.duration.wide).toBe(10);
    expect(opts.requests).toEqual({});
    expect(opts.simWaitSeconds).toBe(60);
  });

  it('picks workloads and keeps their canonical order', () => {
    expect(parseBenchOptions(['--workloads', 'hot,seq']).workloads).toEqual(['seq', 'hot']);
  });

  it('rejects unknown workloads and malformed numbers with a message naming the option', () => {
    expect(() => parseBenchOptions(['--workloads', 'seq,fast'])).toThrow(/--workloads: unknown fast/);
    expect(() => parseBenchOptions(['--rounds', '0'])).toThrow(/--rounds/);
    expect(() => parseBenchOptions(['--requests', 'seq=1.5'])).toThrow(/--requests/);
  });
});

describe('perWorkload', () => {
  it('applies a bare number to every workload and W=N only to the named ones', () => {
    expect(perWorkload('duration', '5', 10).wide).toBe(5);
    const mixed = perWorkload('duration', 'seq=3,wide=20', 10);
    expect(mixed).toMatchObject({ seq: 3, wide: 20, hot: 10 });
    expect(() => perWorkload('duration', 'nope=3', 10)).toThrow(/unknown workload "nope"/);
  });
});
