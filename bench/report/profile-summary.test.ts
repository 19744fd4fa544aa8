import { ownerOf, summarizeProfile } from './profile-summary';

const root = '/srv/app';
const frame = (id: number, functionName: string, url: string, hitCount: number) => ({
  id,
  callFrame: { functionName, url, lineNumber: 9 },
  hitCount,
});

describe('summarizeProfile', () => {
  it('names packages, our files and V8 activities as owners', () => {
    expect(ownerOf('file:///srv/app/node_modules/drizzle-orm/sql/sql.js', 'f', root)).toBe('drizzle-orm');
    expect(ownerOf('file:///srv/app/node_modules/@swc/core/index.js', 'f', root)).toBe('@swc/core');
    expect(ownerOf('file:///srv/app/apps/api/src/main.ts', 'f', root)).toBe('apps/api/src/main.ts');
    expect(ownerOf('node:net', 'f', root)).toBe('node:net');
    expect(ownerOf('', '(garbage collector)', root)).toBe('(garbage collector)');
  });

  it('shares self time among busy samples only, largest first', () => {
    const summary = summarizeProfile(
      'wide-api.cpuprofile',
      {
        startTime: 0,
        endTime: 10_000_000,
        nodes: [
          frame(1, '(idle)', '', 50),
          frame(2, 'buildQuery', 'file:///srv/app/node_modules/drizzle-orm/pg-core/dialect.js', 30),
          frame(3, 'escape', 'file:///srv/app/node_modules/drizzle-orm/sql/sql.js', 10),
          frame(4, '(garbage collector)', '', 10),
        ],
      },
      root,
    );
    expect(summary.busySeconds).toBeCloseTo(5);
    expect(summary.byOwner).toEqual([
      { name: 'drizzle-orm', share: 0.8 },
      { name: '(garbage collector)', share: 0.2 },
    ]);
    expect(summary.topFunctions[0]).toEqual({ name: 'buildQuery (drizzle-orm:10)', share: 0.6 });
  });

  it('counts only the samples inside a window when one is given', () => {
    // Samples every 1,000 µs from t = 1,000: node 2 in the first two, node 3 in the last two.
    const profile = {
      startTime: 0,
      endTime: 4_000,
      nodes: [frame(2, 'parse', 'file:///srv/app/node_modules/joi/lib/index.js', 2), frame(3, 'write', 'node:net', 2)],
      samples: [2, 2, 3, 3],
      timeDeltas: [1_000, 1_000, 1_000, 1_000],
    };
    expect(summarizeProfile('p', profile, root).byOwner).toEqual([
      { name: 'joi', share: 0.5 },
      { name: 'node:net', share: 0.5 },
    ]);
    const late = summarizeProfile('p', profile, root, 10, { fromUs: 2_500, toUs: 4_000 });
    expect(late.byOwner).toEqual([{ name: 'node:net', share: 1 }]);
    expect(late.busySeconds).toBeCloseTo(0.0015);
  });
});
