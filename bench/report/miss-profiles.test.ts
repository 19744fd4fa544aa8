import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { attachMissProfiles, profileCommand } from './miss-profiles';
import type { RegistrationResult, TargetResult } from './result-types';

const root = '/srv/app';
let dir: string;

/** Writes one CPU profile as `--cpu-prof-dir` leaves it: `<stack>-<process>.cpuprofiles/CPU.1.cpuprofile`. */
function writeProfile(name: string, profile: { endTime: number; nodes: unknown[]; samples: number[]; timeDeltas: number[] }): void {
  mkdirSync(path.join(dir, `${name}.cpuprofiles`));
  writeFileSync(path.join(dir, `${name}.cpuprofiles`, 'CPU.1.cpuprofile'), JSON.stringify({ startTime: 0, ...profile }));
}

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'vf-miss-profiles-'));
  // The API's main thread: joi before wide's measured rounds (t < 10,000 µs), pg during them.
  writeProfile('api-alone-api', {
    endTime: 20_000,
    nodes: [
      {
        id: 1,
        callFrame: { functionName: 'validate', url: 'file:///srv/app/node_modules/joi/lib/index.js', lineNumber: 0 },
        hitCount: 9,
      },
      { id: 2, callFrame: { functionName: 'query', url: 'file:///srv/app/node_modules/pg/lib/client.js', lineNumber: 0 }, hitCount: 10 },
    ],
    samples: [1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2],
    timeDeltas: Array(19).fill(1_000),
  });
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

const wide = { workload: 'wide', mode: 'api-alone', measuredWindowUs: { fromUs: 10_000, toUs: 20_000 } } as RegistrationResult;
const target = (status: TargetResult['status'], process: 'api' | 'worker' | 'simulator' = 'api'): TargetResult => ({
  target: 'wide: API CPU per registration at most 0.4 ms',
  measured: '1.6 ms',
  status,
  explainedBy: [{ stack: 'api-alone', process, workload: 'wide' }],
});

describe('attachMissProfiles', () => {
  it("lists the top of the API's profile during the workload's measured rounds under a missed target", () => {
    const [t] = attachMissProfiles([target('missed')], [wide], dir, root);
    expect(t.profiles).toHaveLength(1);
    expect(t.profiles![0]).toMatchObject({
      file: 'api-alone-api.cpuprofile',
      during: "wide's measured rounds",
      byOwner: [{ name: 'pg', share: 1 }],
    });
  });

  it('says so when it summarizes the whole profile, for lack of a recorded window', () => {
    const [t] = attachMissProfiles([target('missed')], [{ ...wide, measuredWindowUs: null }], dir, root);
    expect(t.profiles![0].during).toBe('the whole api-alone stack');
    expect(t.profiles![0].byOwner.map((o) => o.name)).toEqual(['pg', 'joi']);
  });

  it("lists the simulator's profile, written as <stack>-sim", () => {
    writeProfile('api-alone-sim', {
      endTime: 20_000,
      nodes: [
        {
          id: 1,
          callFrame: { functionName: 'parse', url: 'file:///srv/app/node_modules/fast-xml-parser/lib/fxp.cjs', lineNumber: 0 },
          hitCount: 3,
        },
      ],
      samples: [1, 1, 1],
      timeDeltas: [11_000, 1_000, 1_000],
    });
    const [t] = attachMissProfiles([target('missed', 'simulator')], [wide], dir, root);
    expect(t.profiles![0]).toMatchObject({ file: 'api-alone-sim.cpuprofile', byOwner: [{ name: 'fast-xml-parser', share: 1 }] });
  });

  it('leaves met targets and processes without a profile alone', () => {
    expect(attachMissProfiles([target('met')], [wide], dir, root)[0].profiles).toBeUndefined();
    expect(attachMissProfiles([target('missed', 'worker')], [wide], dir, root)[0].profiles).toBeUndefined();
  });
});

describe('profileCommand', () => {
  it('names the workload and the stacks to profile', () => {
    expect(profileCommand([{ stack: 'worker-running', process: 'worker', workload: 'bulk' }])).toBe(
      'npm run bench -- --workloads bulk --modes worker-running --profile',
    );
    expect(profileCommand([{ stack: 'submission', process: 'worker', workload: 'submission' }])).toBe(
      'npm run bench -- --workloads submission --profile',
    );
  });
});
