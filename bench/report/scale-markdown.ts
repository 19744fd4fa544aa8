import type { ScaleResult } from './result-types';

const fmt = (n: number | null | undefined, digits = 0) =>
  n === null || n === undefined ? '–' : n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** The scale workload's section of the report. */
export function scaleSection(scale: ScaleResult | null | undefined): string[] {
  const out = ['## Scale (one account, one chain; API alone, idle)', ''];
  if (!scale) return [...out, 'Not run.', ''];
  const v = scale.verification;
  out.push(
    `${fmt(scale.invoices)} invoices, filled in ${fmt(scale.fillMs / 1000)} s (rows copied from a record registered through the API, each with its own number, date, amounts, recipient, status, huella and link).`,
    '',
    '| `GET /invoices?limit=50&…` | p50 ms | total |',
    '| --- | --- | --- |',
    ...scale.lists.map((l) => `| ${l.name} | ${fmt(l.p50Ms, 2)} | ${fmt(l.total)}${l.totalExact === false ? ' (estimate)' : ''} |`),
    '',
    `Export (CSV, every invoice): ${fmt(scale.export.rows)} rows, ${fmt(scale.export.bytes / 1e6, 1)} MB in ${fmt(scale.export.ms / 1000, 1)} s.`,
    '',
    `Verification of the whole chain (\`GET /chain/{nif}/verification\`, no signed records yet): ${fmt(v.records)} records in ${fmt(v.ms / 1000, 1)} s, ` +
      `${fmt(v.recordsPerSecond)} a second, ${v.ok ? 'valid' : '**not valid**'}; API ${fmt(v.apiCpuMsPerRecord, 4)} ms CPU a record, peak RSS ${fmt(v.apiPeakRssMb)} MB.`,
    '',
    ...signedLine(scale.signedVerification),
    `PostgreSQL per invoice once the sent records have their signed records: ${fmt(scale.bytesPerInvoice)} bytes (` +
      scale.tables.map((t) => `${t.table} ${fmt(t.bytes)}`).join(', ') +
      ').',
    '',
  );
  return out;
}

function signedLine(v: ScaleResult['signedVerification']): string[] {
  if (!v?.signatures) return [];
  const s = v.signatures;
  return [
    `Verification of a chain with real signatures (every sent record signed, each signature verified): ${fmt(v.records)} records in ${fmt(v.ms / 1000, 1)} s, ` +
      `${fmt(v.recordsPerSecond)} a second${v.coldMs === undefined ? '' : ` (the first walk, which also started the API's signature threads, ${fmt(v.coldMs / 1000, 1)} s)`}, ${v.ok ? 'valid' : '**not valid**'}; signatures ${fmt(s.valid)} valid, ${fmt(s.invalid)} invalid, ${fmt(s.missing)} missing; ` +
      `API ${fmt(v.apiCpuMsPerRecord, 4)} ms CPU a record, peak RSS ${fmt(v.apiPeakRssMb)} MB.`,
    '',
  ];
}
