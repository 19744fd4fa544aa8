import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Pool } from 'pg';

const SAMPLE_EVERY_MS = 200;

export interface ProcessUsage {
  /** Highest resident set size seen while metering, in MB (VmRSS from /proc/<pid>/status). */
  peakRssMb: number | null;
  /** CPU time (user + system) the process used between the meter's CPU readings, in ms. */
  cpuMs: number | null;
}

let ticksPerSecond: number | undefined;
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

export function rssMb(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

export function cpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces; fields are counted from the closing parenthesis (utime is field 14).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks();
  } catch {
    return null;
  }
}

/**
 * Samples the RSS of named processes while a workload runs and measures the CPU they spent meanwhile: from
 * start (or from markCpuStart, once a warm-up is over) to stop (or to markCpuEnd).
 */
export class ProcessMeter {
  private readonly peaks = new Map<string, number>();
  private cpuAtStart = new Map<string, number | null>();
  private cpuAtEnd: Map<string, number | null> | undefined;
  private timer?: NodeJS.Timeout;

  constructor(private readonly pids: Record<string, number>) {}

  private readCpu(): Map<string, number | null> {
    return new Map(Object.entries(this.pids).map(([name, pid]) => [name, cpuMs(pid)]));
  }

  start(): this {
    this.cpuAtStart = this.readCpu();
    this.sample();
    this.timer = setInterval(() => this.sample(), SAMPLE_EVERY_MS);
    return this;
  }

  markCpuStart(): void {
    this.cpuAtStart = this.readCpu();
  }

  markCpuEnd(): void {
    this.cpuAtEnd = this.readCpu();
  }

  stop(): Record<string, ProcessUsage> {
    clearInterval(this.timer);
    this.sample();
    const atEnd = this.cpuAtEnd ?? this.readCpu();
    const usage: Record<string, ProcessUsage> = {};
    for (const name of Object.keys(this.pids)) {
      const before = this.cpuAtStart.get(name) ?? null;
      const after = atEnd.get(name) ?? null;
      const peak = this.peaks.get(name);
      usage[name] = {
        peakRssMb: peak === undefined ? null : Math.round(peak * 10) / 10,
        cpuMs: before !== null && after !== null ? after - before : null,
      };
    }
    return usage;
  }

  private sample(): void {
    for (const [name, pid] of Object.entries(this.pids)) {
      const rss = rssMb(pid);
      if (rss !== null && rss > (this.peaks.get(name) ?? 0)) this.peaks.set(name, rss);
    }
  }
}

/**
 * CPU spent by the PostgreSQL backends serving one database (the stack's pools) between start and stop.
 * Backends that end in between are not counted; server-wide processes (WAL writer, checkpointer) neither,
 * since other databases share them.
 */
export class BackendCpuMeter {
  private atStart = new Map<number, number>();

  constructor(
    private readonly pool: Pool,
    private readonly database: string,
  ) {}

  private async pids(): Promise<number[]> {
    const { rows } = await this.pool.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
      [this.database],
    );
    return rows.map((r) => r.pid);
  }

  async start(): Promise<this> {
    for (const pid of await this.pids()) {
      const cpu = cpuMs(pid);
      if (cpu !== null) this.atStart.set(pid, cpu);
    }
    return this;
  }

  /** CPU ms of the database's backends since start; null when /proc shows none of them (e.g. a remote server). */
  async stop(): Promise<number | null> {
    let total = 0;
    let seen = 0;
    for (const pid of await this.pids()) {
      const cpu = cpuMs(pid);
      if (cpu === null) continue;
      seen += 1;
      total += cpu - (this.atStart.get(pid) ?? 0);
    }
    return seen ? total : null;
  }
}
