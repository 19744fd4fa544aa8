import type { CensusResult } from '../workloads/census-bench';

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** The census workload's section of the report. */
export function censusSection(census: CensusResult | null | undefined, error?: string): string[] {
  const out = ['## Tax ID checks (against the simulator’s census; API and one worker)', ''];
  if (!census) return [...out, error ? `Failed: ${error}` : 'Not run.', ''];
  const { list, registrations: r } = census;
  return [
    ...out,
    `A list of ${fmt(list.rows)} NIFs (\`POST /tax-ids/lists\`, none cached), from its POST to \`done\` as a client polling it sees it: ` +
      `${fmt(list.seconds, 1)} s, ${fmt(list.rowsPerSecond)} NIFs/s.`,
    '',
    `Registrations one at a time (${fmt(r.count)} of each, alternated; every warn asks the census about a new NIF):`,
    '',
    '| registration | p50 ms | p95 ms |',
    '| --- | --- | --- |',
    `| plain | ${fmt(r.plainMs.p50, 1)} | ${fmt(r.plainMs.p95, 1)} |`,
    `| \`?recipient_check=warn\` | ${fmt(r.warnMs.p50, 1)} | ${fmt(r.warnMs.p95, 1)} |`,
    '',
    `\`warn\` adds ${fmt(r.addedP50Ms, 1)} ms at p50.`,
    '',
  ];
}
