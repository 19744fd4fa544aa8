import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { createTables, PAYLOAD } from '../load/baseline-load';
import type { BaselineLoadSpec, RoundResult } from '../load/load-spec';
import { pgbenchScript } from '../load/pgbench-script';
import { parsePgbenchSummary, pgbenchLatenciesMs, pgbenchVersion } from '../report/pgbench-output';
import type { BaselineResult } from '../report/result-types';
import { medianBy, round, summarizeLatencies } from '../report/stats';
import type { Processes } from '../stack/processes';

const MAX_ERROR_SAMPLES = 5;

/** The shape of one baseline: what the Node baseline ran, pgbench runs too. */
export type BaselineShape = Omit<BaselineLoadSpec, 'kind' | 'databaseUrl'>;

function run(processes: Processes, args: string[]): Promise<{ code: number | null; output: string; missing: boolean }> {
  return new Promise((resolve) => {
    const child = spawn('pgbench', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    processes.track(child);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', (err: NodeJS.ErrnoException) => resolve({ code: null, output: err.message, missing: err.code === 'ENOENT' }));
    child.once('close', (code) => resolve({ code, output, missing: false }));
  });
}

/** pgbench's version when it is installed (on PATH), else null. */
export async function installedPgbench(processes: Processes): Promise<string | null> {
  const { code, output, missing } = await run(processes, ['--version']);
  return missing || code !== 0 ? null : (pgbenchVersion(output) ?? output.trim());
}

/**
 * The baseline's append run by pgbench (custom script, prepared statements, one connection per client, as many
 * threads as cores allow) on the baseline's tables, made afresh: a warm-up, then each measured round as one
 * `pgbench -T` run with a per-transaction log for the latencies.
 */
export async function runPgbenchShape(
  processes: Processes,
  databaseUrl: string,
  shape: BaselineShape,
): Promise<Omit<BaselineResult, 'workload'>> {
  const admin = new Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    await createTables(admin, shape.schema, shape.taxpayers);
  } finally {
    await admin.end();
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vf-bench-pgbench-'));
  const script = path.join(dir, 'append.sql');
  writeFileSync(script, pgbenchScript(shape.schema, shape.recordsPerTransaction));
  const errorSamples: string[] = [];
  let invocation = 0;

  const pgbench = async (seconds: number, logPrefix?: string) => {
    invocation += 1;
    const args = [
      '--no-vacuum',
      `--file=${script}`,
      '--protocol=prepared',
      `--client=${shape.connections}`,
      `--jobs=${Math.min(shape.connections, os.cpus().length)}`,
      `--time=${Math.max(1, Math.round(seconds))}`,
      `--define=clients=${shape.connections}`,
      `--define=taxpayers=${shape.taxpayers}`,
      `--define=run=${invocation}`,
      '--define=n=0',
      `--define=payload=${PAYLOAD}`,
      ...(logPrefix ? ['--log', `--log-prefix=${logPrefix}`] : []),
      databaseUrl,
    ];
    const { code, output } = await run(processes, args);
    const summary = parsePgbenchSummary(output);
    if ((code !== 0 || summary.aborted || summary.failed > 0) && errorSamples.length < MAX_ERROR_SAMPLES) {
      const errors = output.split('\n').filter((l) => /error|abort/i.test(l));
      errorSamples.push(...(errors.length ? errors : [`pgbench exited with ${code}`]).slice(0, MAX_ERROR_SAMPLES - errorSamples.length));
    }
    return summary;
  };

  try {
    if (shape.warmupSeconds > 0) await pgbench(shape.warmupSeconds);
    const rounds: RoundResult[] = [];
    for (let r = 0; r < shape.rounds; r += 1) {
      const prefix = path.join(dir, `round${r}`);
      const summary = await pgbench(shape.seconds, prefix);
      const logs = readdirSync(dir).filter((f) => f.startsWith(`round${r}.`));
      const latencies = logs.flatMap((f) => pgbenchLatenciesMs(readFileSync(path.join(dir, f), 'utf8')));
      const seconds = Math.max(1, Math.round(shape.seconds));
      rounds.push({
        seconds,
        requests: summary.transactions + summary.failed,
        registered: summary.transactions * shape.recordsPerTransaction,
        errors: summary.failed + (summary.aborted ? 1 : 0),
        registrationsPerSecond: round((summary.tps ?? summary.transactions / seconds) * shape.recordsPerTransaction)!,
        latencyMs: summarizeLatencies(latencies),
      });
    }
    return {
      connections: shape.connections,
      taxpayers: shape.taxpayers,
      recordsPerTransaction: shape.recordsPerTransaction,
      rounds,
      summary: medianBy(rounds, (r) => r.registrationsPerSecond),
      errorSamples,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
