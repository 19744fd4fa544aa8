import type { FloorResult } from './result-types';

const fmt = (n: number | null | undefined, digits = 0) =>
  n === null || n === undefined ? '–' : n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** The HTTP floor's section of the report: nothing when it was not measured (older results, --no-baseline). */
export function floorSection(floor: FloorResult[] | undefined): string[] {
  if (!floor?.length) return [];
  const out = [
    '## HTTP floor (bare Express: parse the invoice, answer 201; the same load generator, invoices and connections)',
    '',
    '| shape of | clients | req/s | p50 ms | p95 ms | p99 ms | errors | server CPU ms/req | load CPU ms/req | peak RSS MB |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const f of floor) {
    const s = f.summary;
    out.push(
      `| ${f.workload} | ${fmt(f.clients)} | ${fmt(s?.registrationsPerSecond)} | ${fmt(s?.latencyMs.p50, 2)} | ${fmt(s?.latencyMs.p95, 2)} | ` +
        `${fmt(s?.latencyMs.p99, 2)} | ${fmt(s?.errors)} | ${fmt(f.serverCpuMsPerRequest, 3)} | ${fmt(f.loadCpuMsPerRequest, 3)} | ${fmt(f.peakRssMb)} |`,
    );
  }
  out.push('');
  for (const f of floor) for (const e of f.errorSamples) out.push(`- ${f.workload}: \`${e.replace(/`/g, "'").replace(/\s+/g, ' ')}\``);
  if (floor.some((f) => f.errorSamples.length)) out.push('');
  return out;
}
