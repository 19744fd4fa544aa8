import type { BenchOptions } from '../options';
import { runLoad } from '../load/run-load';
import type { BaselineResult } from '../report/result-types';
import { medianBy } from '../report/stats';
import type { Processes } from '../stack/processes';
import { createScratchDatabase, databaseUrl, dropScratchDatabase, scratchName } from '../stack/scratch';
import { REGISTRATION_WORKLOADS, type RegistrationWorkload } from './workloads';

/**
 * The bare-PostgreSQL append for the shape of each registration workload (same connections, taxpayers and
 * records per transaction), on scratch tables in a database of its own, while no service runs.
 * `paced` offers a fixed rate, so no ceiling is measured for it.
 */
export async function runBaselines(processes: Processes, workloads: RegistrationWorkload[], opts: BenchOptions): Promise<BaselineResult[]> {
  const name = scratchName('baseline');
  await createScratchDatabase(name);
  const results: BaselineResult[] = [];
  try {
    for (const workload of workloads) {
      const shape = REGISTRATION_WORKLOADS[workload];
      if ('rate' in shape) continue;
      const recordsPerTransaction = 'batchSize' in shape ? shape.batchSize : 1;
      console.log(
        `baseline ${workload}: ${shape.clients} connections, ${shape.taxpayers} taxpayers, ${recordsPerTransaction} records per transaction`,
      );
      const load = await runLoad(processes, {
        kind: 'baseline',
        databaseUrl: databaseUrl(name),
        schema: `baseline_${workload}`,
        connections: shape.clients,
        taxpayers: shape.taxpayers,
        recordsPerTransaction,
        warmupSeconds: Math.min(1, opts.warmupSeconds),
        rounds: opts.rounds,
        seconds: opts.baselineSeconds,
      });
      const summary = medianBy(load.rounds, (r) => r.registrationsPerSecond);
      results.push({
        workload,
        connections: shape.clients,
        taxpayers: shape.taxpayers,
        recordsPerTransaction,
        rounds: load.rounds,
        summary,
        errorSamples: load.errorSamples,
      });
    }
  } finally {
    if (!opts.keepData) await dropScratchDatabase(name);
  }
  return results;
}
