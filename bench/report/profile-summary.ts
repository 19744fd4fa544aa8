import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface CpuProfile {
  nodes: CpuProfileNode[];
  startTime: number;
  endTime: number;
}

export interface ProfileShare {
  name: string;
  /** Share of the busy (non-idle) samples, 0..1. */
  share: number;
}

export interface ProfileSummary {
  /** The profile's file name: `<stack>-<process>.cpuprofile`. */
  file: string;
  busySeconds: number;
  /** Where the busy time went, by package (or by our own file, or by V8 activity such as GC). */
  byOwner: ProfileShare[];
  /** The functions with the most self time. */
  topFunctions: ProfileShare[];
}

const IDLE = new Set(['(idle)', '(program)']);

/** Who a frame belongs to: the npm package, the repository's own file, or a V8/Node activity. */
export function ownerOf(url: string, functionName: string, root: string): string {
  if (!url) return functionName || '(native)';
  const marker = '/node_modules/';
  const at = url.lastIndexOf(marker);
  if (at >= 0) {
    const parts = url.slice(at + marker.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  if (url.startsWith('node:')) return url;
  const file = url.replace(/^file:\/\//, '');
  return file.startsWith(root) ? path.relative(root, file) : file;
}

function top(totals: Map<string, number>, busy: number, n: number): ProfileShare[] {
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, hits]) => ({ name, share: busy ? hits / busy : 0 }));
}

/** Self time of a V8 CPU profile (node --cpu-prof), folded by owner and by function. */
export function summarizeProfile(file: string, profile: CpuProfile, root: string, n = 10): ProfileSummary {
  const byOwner = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busy = 0;
  let all = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    all += hits;
    const { functionName, url, lineNumber } = node.callFrame;
    if (hits === 0 || IDLE.has(functionName)) continue;
    busy += hits;
    const owner = ownerOf(url, functionName, root);
    byOwner.set(owner, (byOwner.get(owner) ?? 0) + hits);
    const fn = url ? `${functionName || '(anonymous)'} (${owner}:${lineNumber + 1})` : owner;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + hits);
  }
  const seconds = (profile.endTime - profile.startTime) / 1e6;
  return { file, busySeconds: all ? (seconds * busy) / all : 0, byOwner: top(byOwner, busy, n), topFunctions: top(byFunction, busy, n) };
}

/**
 * Every process's profile the run wrote into its log directory, summarized: each process has a directory
 * `<stack>-<process>.cpuprofiles` with one profile per thread, of which the busiest is its main thread.
 */
export function summarizeProfiles(dir: string, root: string): ProfileSummary[] {
  return readdirSync(dir)
    .filter((d) => d.endsWith('.cpuprofiles'))
    .sort()
    .flatMap((d) => {
      const threads = readdirSync(path.join(dir, d))
        .filter((f) => f.endsWith('.cpuprofile'))
        .map((f) => summarizeProfile(d.replace(/s$/, ''), JSON.parse(readFileSync(path.join(dir, d, f), 'utf8')) as CpuProfile, root));
      return threads.length ? [threads.reduce((a, b) => (b.busySeconds > a.busySeconds ? b : a))] : [];
    });
}
