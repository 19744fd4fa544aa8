import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

export interface CpuProfile {
  nodes: CpuProfileNode[];
  /** CLOCK_MONOTONIC microseconds. */
  startTime: number;
  endTime: number;
  /** The node of each sample, and the time since the sample before (the first: since startTime), in µs. */
  samples?: number[];
  timeDeltas?: number[];
}

/** A span of the profile to summarize alone, in the profile's clock (CLOCK_MONOTONIC µs). */
export interface ProfileWindow {
  fromUs: number;
  toUs: number;
}

export interface ProfileShare {
  name: string;
  /** Share of the busy (non-idle) samples, 0..1. */
  share: number;
}

export interface ProfileSummary {
  /** The profile's file name: `<stack>-<process>.cpuprofile`. */
  file: string;
  /** What part of the process's life it covers, when not all of it (e.g. "wide's measured rounds"). */
  during?: string;
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

/** Samples per node: every sample, or only those taken inside the window. */
function hitsByNode(profile: CpuProfile, window?: ProfileWindow): Map<number, number> {
  const hits = new Map<number, number>();
  if (!window || !profile.samples || !profile.timeDeltas) {
    for (const node of profile.nodes) hits.set(node.id, node.hitCount ?? 0);
    return hits;
  }
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas![i] ?? 0;
    if (at >= window.fromUs && at <= window.toUs) hits.set(id, (hits.get(id) ?? 0) + 1);
  });
  return hits;
}

/** Self time of a V8 CPU profile (node --cpu-prof), folded by owner and by function; within `window` when given. */
export function summarizeProfile(file: string, profile: CpuProfile, root: string, n = 10, window?: ProfileWindow): ProfileSummary {
  const hitsOf = hitsByNode(profile, window);
  const byOwner = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busy = 0;
  let all = 0;
  for (const node of profile.nodes) {
    const hits = hitsOf.get(node.id) ?? 0;
    all += hits;
    const { functionName, url, lineNumber } = node.callFrame;
    if (hits === 0 || IDLE.has(functionName)) continue;
    busy += hits;
    const owner = ownerOf(url, functionName, root);
    byOwner.set(owner, (byOwner.get(owner) ?? 0) + hits);
    const fn = url ? `${functionName || '(anonymous)'} (${owner}:${lineNumber + 1})` : owner;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + hits);
  }
  const from = window ? Math.max(window.fromUs, profile.startTime) : profile.startTime;
  const to = window ? Math.min(window.toUs, profile.endTime) : profile.endTime;
  const seconds = Math.max(0, to - from) / 1e6;
  return { file, busySeconds: all ? (seconds * busy) / all : 0, byOwner: top(byOwner, busy, n), topFunctions: top(byFunction, busy, n) };
}

/**
 * The profile of one process (`<stack>-<process>.cpuprofiles`, a directory with a profile per thread) summarized:
 * its busiest thread, which is its main thread. Null when the process wrote no profile.
 */
export function summarizeProcessProfile(
  dir: string,
  name: string,
  root: string,
  opts: { n?: number; window?: ProfileWindow } = {},
): ProfileSummary | null {
  const threadsDir = path.join(dir, `${name}.cpuprofiles`);
  if (!existsSync(threadsDir)) return null;
  const threads = readdirSync(threadsDir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) =>
      summarizeProfile(
        `${name}.cpuprofile`,
        JSON.parse(readFileSync(path.join(threadsDir, f), 'utf8')) as CpuProfile,
        root,
        opts.n,
        opts.window,
      ),
    );
  return threads.length ? threads.reduce((a, b) => (b.busySeconds > a.busySeconds ? b : a)) : null;
}

/**
 * Every process's profile the run wrote into its log directory, summarized: each process has a directory
 * `<stack>-<process>.cpuprofiles` with one profile per thread, of which the busiest is its main thread.
 */
export function summarizeProfiles(dir: string, root: string): ProfileSummary[] {
  return readdirSync(dir)
    .filter((d) => d.endsWith('.cpuprofiles'))
    .sort()
    .flatMap((d) => summarizeProcessProfile(dir, d.replace(/\.cpuprofiles$/, ''), root) ?? []);
}
