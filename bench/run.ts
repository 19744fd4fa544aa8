/** `npm run bench`: the benchmarks, one after the other. Arguments after `--` go to the submission benchmark. */
import { submissionThroughput } from './submission-throughput';

async function main(): Promise<void> {
  await submissionThroughput(process.argv.slice(2));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
