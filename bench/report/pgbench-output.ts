/** What one pgbench run printed at its end. */
export interface PgbenchSummary {
  /** Transactions that committed. */
  transactions: number;
  failed: number;
  /** Transactions per second, without the initial connection time; null when pgbench printed none. */
  tps: number | null;
  /** pgbench stopped a client on an error ("Run was aborted"): the figures are incomplete. */
  aborted: boolean;
}

function count(text: string, pattern: RegExp): number | null {
  const match = pattern.exec(text);
  return match ? Number(match[1]) : null;
}

/** Reads the summary pgbench prints (stdout and stderr together: the abort notice goes to stderr). */
export function parsePgbenchSummary(output: string): PgbenchSummary {
  return {
    transactions: count(output, /^number of transactions actually processed: (\d+)/m) ?? 0,
    // Printed from PostgreSQL 15 on; before, an error aborts the client instead.
    failed: count(output, /^number of failed transactions: (\d+)/m) ?? 0,
    tps: count(output, /^tps = ([\d.]+)/m),
    aborted: /Run was aborted/.test(output),
  };
}

/**
 * Latencies in milliseconds from a per-transaction log (`pgbench -l`): `client transaction time_us script epoch
 * epoch_us …`, where a failed or skipped transaction has a word instead of a time.
 */
export function pgbenchLatenciesMs(log: string): number[] {
  const latencies: number[] = [];
  for (const line of log.split('\n')) {
    const micros = Number(line.split(' ')[2]);
    if (line.trim() && Number.isFinite(micros)) latencies.push(micros / 1000);
  }
  return latencies;
}

/** "pgbench (PostgreSQL) 15.20 (Debian …)" → "15.20 (Debian …)". */
export function pgbenchVersion(output: string): string | null {
  return /^pgbench \(PostgreSQL\) (.+)$/m.exec(output)?.[1].trim() ?? null;
}
