/**
 * `npm run bench`: both benchmarks with their defaults, or one of them with its own options:
 *   npm run bench -- registration --invoices 2000 --taxpayers 1 --concurrency 32
 *   npm run bench -- submission --invoices 2000 --taxpayers 4 --workers 3
 */
import { registrationThroughput } from './registration-throughput';
import { submissionThroughput } from './submission-throughput';

const BENCHES: Record<string, (argv: string[]) => Promise<void>> = { registration: registrationThroughput, submission: submissionThroughput };

async function main(): Promise<void> {
  const [name, ...rest] = process.argv.slice(2);
  if (name === undefined) {
    for (const bench of Object.values(BENCHES)) await bench([]);
    return;
  }
  const bench = BENCHES[name];
  if (!bench) throw new Error(`unknown benchmark "${name}"; choose one of: ${Object.keys(BENCHES).join(', ')}`);
  await bench(rest);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
