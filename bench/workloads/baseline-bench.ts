import type { BenchOptions } from '../options';
import { runLoad } from '../load/run-load';
import type { BaselineResult, PgbenchBaselines } from '../report/result-types';
import { medianBy } from '../report/stats';
import type { Processes } from '../stack/processes';
import { createScratchDatabase, databaseUrl, dropScratchDatabase, scratchName } from '../stack/scratch';
import { installedPgbench, runPgbenchShape, type BaselineShape } from './pgbench-bench';
import { REGISTRATION_WORKLOADS, type RegistrationWorkload } from './workloads';

/**
 * The bare-PostgreSQL append for the shape of each registration workload (same connections, taxpayers and
 * records per transaction), on scratch tables in a database of its own, while no service runs: first from Node
 * (`pg`, as the services talk to PostgreSQL), then, when it is installed, from pgbench on the same tables made
 * afresh. `paced` offers a fixed rate, so no ceiling is measured for it.
 */
export async function runBaselines(
  processes: Processes,
  workloads: RegistrationWorkload[],
  opts: BenchOptions,
): Promise<{ baselines: BaselineResult[]; pgbench: PgbenchBaselines }> {
  const name = scratchName('baseline');
  const version = await installedPgbench(processes);
  const pgbench: PgbenchBaselines = { version, notMeasured: version ? null : 'pgbench not installed', results: [] };
  if (!version) console.log('pgbench: not measured (pgbench not installed; Debian/Ubuntu: postgresql-client)');
  await createScratchDatabase(name);
  const baselines: BaselineResult[] = [];
  try {
    for (const workload of workloads) {
      const shape = REGISTRATION_WORKLOADS[workload];
      if ('rate' in shape) continue;
      const base: BaselineShape = {
        schema: `baseline_${workload}`,
        connections: shape.clients,
        taxpayers: shape.taxpayers,
        recordsPerTransaction: 'batchSize' in shape ? shape.batchSize : 1,
        warmupSeconds: Math.min(1, opts.warmupSeconds),
        rounds: opts.rounds,
        seconds: opts.baselineSeconds,
      };
      console.log(
        `baseline ${workload}: ${base.connections} connections, ${base.taxpayers} taxpayers, ${base.recordsPerTransaction} records per transaction`,
      );
      const load = await runLoad(processes, { kind: 'baseline', databaseUrl: databaseUrl(name), ...base });
      baselines.push({
        workload,
        connections: base.connections,
        taxpayers: base.taxpayers,
        recordsPerTransaction: base.recordsPerTransaction,
        rounds: load.rounds,
        summary: medianBy(load.rounds, (r) => r.registrationsPerSecond),
        errorSamples: load.errorSamples,
      });
      if (version) {
        const result = { workload, ...(await runPgbenchShape(processes, databaseUrl(name), base)) };
        console.log(`  pgbench: ${result.summary?.registrationsPerSecond ?? '?'} records/s`);
        pgbench.results.push(result);
      }
    }
  } finally {
    if (!opts.keepData) await dropScratchDatabase(name);
  }
  return { baselines, pgbench };
}
