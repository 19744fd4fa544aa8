import { MODES, type Mode } from '../workloads/workloads';
import { summarizeProcessProfile } from './profile-summary';
import type { ProfileSource, RegistrationResult, TargetResult } from './result-types';

/** Entries of a profile listed under a missed target. */
const TOP = 5;

const PROFILE_NAMES = { api: 'api', worker: 'worker-1', simulator: 'sim' } as const;

/** The profile directory's name of a source: `<stack>-api`, `<stack>-worker-1` (the stack's first worker) or `<stack>-sim`. */
export function profileName(source: ProfileSource): string {
  return `${source.stack}-${PROFILE_NAMES[source.process]}`;
}

/**
 * Each missed target, with the top of the CPU profiles that explain it attached: the API's or the worker's, cut to
 * the workload's measured rounds where the run recorded them (else the process's whole life, said so).
 */
export function attachMissProfiles(
  targets: TargetResult[],
  registrations: RegistrationResult[],
  logDir: string,
  root: string,
): TargetResult[] {
  return targets.map((t) => {
    if (t.status !== 'missed' || !t.explainedBy?.length) return t;
    const profiles = t.explainedBy.flatMap((source) => {
      const run = MODES.includes(source.stack as Mode)
        ? registrations.find((r) => r.mode === source.stack && r.workload === source.workload)
        : undefined;
      const window = run?.measuredWindowUs ?? undefined;
      const summary = summarizeProcessProfile(logDir, profileName(source), root, { n: TOP, window });
      if (!summary) return [];
      return [{ ...summary, during: window ? `${source.workload}'s measured rounds` : `the whole ${source.stack} stack` }];
    });
    return profiles.length ? { ...t, profiles } : t;
  });
}

/** The command that writes the profiles explaining a target. */
export function profileCommand(sources: ProfileSource[]): string {
  const workloads = [...new Set(sources.map((s) => s.workload))];
  const modes = [...new Set(sources.map((s) => s.stack).filter((s): s is Mode => MODES.includes(s as Mode)))];
  return `npm run bench -- --workloads ${workloads.join(',')}${modes.length ? ` --modes ${modes.join(',')}` : ''} --profile`;
}
