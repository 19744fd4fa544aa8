/**
 * The load generator: a process of its own, so that the clients never share an event loop (or a CPU
 * accounting) with the API. Reads one LoadSpec (JSON) from BENCH_LOAD_SPEC, prints one LoadResult (JSON) as
 * its last line of output, and exits; every load is bounded in time or count.
 */
import { runBaselineLoad } from './baseline-load';
import { runBulkLoad } from './bulk-load';
import { runHttpLoad } from './http-load';
import { runPacedLoad } from './paced-load';
import type { LoadResult, LoadSpec } from './load-spec';
import { announcePhase } from './measure-phase';

async function main(): Promise<void> {
  const spec = JSON.parse(process.env.BENCH_LOAD_SPEC ?? 'null') as LoadSpec | null;
  if (!spec) throw new Error('BENCH_LOAD_SPEC must hold a LoadSpec as JSON');
  let result: LoadResult;
  if (spec.kind === 'http')
    result =
      spec.rate !== undefined ? await runPacedLoad({ ...spec, rate: spec.rate }, announcePhase) : await runHttpLoad(spec, announcePhase);
  else if (spec.kind === 'bulk') result = await runBulkLoad(spec, announcePhase);
  else result = await runBaselineLoad(spec, announcePhase);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
