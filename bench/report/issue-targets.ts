import type { RegistrationResult, ScaleResult, TargetResult, TargetStatus } from './result-types';

/** Issue 35's targets: a lone registration, lists, verification and bytes at a million invoices (2-core machine). */
export const ISSUE_TARGETS = {
  /** `seq` (API alone). */
  seqP50Ms: 1.5,
  seqRate: 600,
  seqApiCpuMs: 0.6,
  /** The scale workload's size each scale target is stated for. */
  scaleInvoices: 1_000_000,
  listP50Ms: 50,
  /** Hashes and links, the whole chain. */
  verifyRecordsPerSecond: 20_000,
  verifyMillionMs: 60_000,
  bytesPerInvoice: 2048,
} as const;

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const verdict = (ok: boolean): TargetStatus => (ok ? 'met' : 'missed');

function seqTargets(seq: RegistrationResult | undefined): TargetResult[] {
  const s = seq?.available ? seq.summary : undefined;
  const judge = (
    target: string,
    value: number | null | undefined,
    measured: (v: number) => string,
    ok: (v: number) => boolean,
  ): TargetResult =>
    value === null || value === undefined
      ? { target, measured: 'seq (API alone) not run', status: 'not measured' }
      : {
          target,
          measured: measured(value),
          status: verdict(ok(value)),
          explainedBy: [{ stack: 'api-alone', process: 'api', workload: 'seq' }],
        };
  return [
    judge(
      `seq: p50 at most ${ISSUE_TARGETS.seqP50Ms} ms (API alone)`,
      s?.latencyMs.p50,
      (v) => `${fmt(v, 2)} ms`,
      (v) => v <= ISSUE_TARGETS.seqP50Ms,
    ),
    judge(
      `seq: at least ${ISSUE_TARGETS.seqRate}/s (API alone)`,
      s?.registrationsPerSecond,
      (v) => `${fmt(v)}/s`,
      (v) => v >= ISSUE_TARGETS.seqRate,
    ),
    judge(
      `seq: API CPU per registration at most ${ISSUE_TARGETS.seqApiCpuMs} ms (API alone)`,
      seq?.apiCpuMsPerRegistration,
      (v) => `${fmt(v, 3)} ms`,
      (v) => v <= ISSUE_TARGETS.seqApiCpuMs,
    ),
  ];
}

function scaleTargets(scale: ScaleResult | null | undefined): TargetResult[] {
  const at = `at ${fmt(ISSUE_TARGETS.scaleInvoices)} invoices`;
  const targets = [
    `every documented list query's first page in at most ${ISSUE_TARGETS.listP50Ms} ms at the median, ${at}`,
    `a chain verified at ${fmt(ISSUE_TARGETS.verifyRecordsPerSecond)} records/s or more (hashes and links), ${fmt(ISSUE_TARGETS.scaleInvoices)} records under ${ISSUE_TARGETS.verifyMillionMs / 1000} s`,
    `at most ${fmt(ISSUE_TARGETS.bytesPerInvoice)} bytes of PostgreSQL per one-line invoice, ${at}`,
  ];
  if (!scale) return targets.map((target) => ({ target, measured: 'scale workload not run', status: 'not measured' }));
  const counted = scale.invoices === ISSUE_TARGETS.scaleInvoices;
  const status = (ok: boolean): TargetStatus => (counted ? verdict(ok) : 'not measured');
  const size = counted ? '' : ` (at ${fmt(scale.invoices)} invoices)`;
  // Every list over the bound named, slowest first: the report says which queries miss, not only how many.
  const slow = scale.lists.filter((l) => l.p50Ms > ISSUE_TARGETS.listP50Ms).sort((a, b) => b.p50Ms - a.p50Ms);
  const slowest = [...scale.lists].sort((a, b) => b.p50Ms - a.p50Ms)[0];
  const over =
    slow.length > 0
      ? `; over: ${slow.map((l) => `${l.name} ${fmt(l.p50Ms, 1)} ms`).join(', ')}`
      : `; slowest ${slowest?.name ?? '-'} ${fmt(slowest?.p50Ms ?? 0, 1)} ms`;
  const v = scale.verification;
  return [
    {
      target: targets[0],
      measured: `${scale.lists.length - slow.length} of ${scale.lists.length} within${over}${size}`,
      status: status(slow.length === 0),
    },
    {
      target: targets[1],
      measured: `${fmt(v.recordsPerSecond)}/s, ${fmt(v.records)} records in ${fmt(v.ms / 1000, 1)} s${v.ok ? '' : ', CHAIN NOT VALID'}${size}`,
      status: status(v.ok && v.recordsPerSecond >= ISSUE_TARGETS.verifyRecordsPerSecond && v.ms < ISSUE_TARGETS.verifyMillionMs),
    },
    {
      target: targets[2],
      measured: `${fmt(scale.bytesPerInvoice)} bytes${size}`,
      status: status(scale.bytesPerInvoice <= ISSUE_TARGETS.bytesPerInvoice),
    },
  ];
}

/** Issue 35's targets judged from a run's results. */
export function evaluateIssueTargets(registrations: RegistrationResult[], scale: ScaleResult | null | undefined): TargetResult[] {
  return [...seqTargets(registrations.find((r) => r.workload === 'seq' && r.mode === 'api-alone')), ...scaleTargets(scale)];
}
