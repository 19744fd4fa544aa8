import type { FloorResult, RegistrationResult, ScaleResult, ScaleVerification, TargetResult, TargetStatus } from './result-types';

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
  /** Hashes, links and every signature, a chain of this many records. */
  verifySignaturesPerSecond: 5_000,
  signedChainRecords: 10_000,
  bytesPerInvoice: 2048,
} as const;

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const verdict = (ok: boolean): TargetStatus => (ok ? 'met' : 'missed');

/** How far a value is from its bound, for a missed target: "1.2 ms over (1.8 times the bound)". */
function shortfall(value: number, bound: number, atMost: boolean, unit: string, digits: number): string {
  const gap = fmt(Math.abs(value - bound), digits);
  return atMost
    ? `; ${gap}${unit} over (${fmt(value / bound, 2)} times the bound)`
    : `; ${gap}${unit} short (${fmt(value / bound, 2)} of the bound)`;
}

/** What bare Express alone does here for seq's shape (bench/workloads/floor-bench.ts), said beside a miss. */
function floorNotes(floor: FloorResult | undefined): { p50: string; rate: string; cpu: string } {
  const s = floor?.summary;
  const alone = (what: string | null) => (what === null ? '' : `; bare Express alone: ${what} here`);
  return {
    p50: alone(s?.latencyMs.p50 != null ? `p50 ${fmt(s.latencyMs.p50, 2)} ms` : null),
    rate: alone(s ? `${fmt(s.registrationsPerSecond)}/s` : null),
    cpu: alone(floor?.serverCpuMsPerRequest != null ? `${fmt(floor.serverCpuMsPerRequest, 2)} ms of CPU a request` : null),
  };
}

function seqTargets(seq: RegistrationResult | undefined, floor: FloorResult | undefined): TargetResult[] {
  const s = seq?.available ? seq.summary : undefined;
  const notes = floorNotes(floor);
  // A bound, at most or at least; a missed one says by how much.
  const judge = (
    target: string,
    value: number | null | undefined,
    bound: number,
    atMost: boolean,
    unit: string,
    digits: number,
    floorNote: string,
  ): TargetResult => {
    if (value === null || value === undefined) return { target, measured: 'seq (API alone) not run', status: 'not measured' };
    const ok = atMost ? value <= bound : value >= bound;
    return {
      target,
      measured: `${fmt(value, digits)}${unit}${ok ? '' : shortfall(value, bound, atMost, unit, digits) + floorNote}`,
      status: verdict(ok),
      explainedBy: [{ stack: 'api-alone', process: 'api', workload: 'seq' }],
    };
  };
  return [
    judge(`seq: p50 at most ${ISSUE_TARGETS.seqP50Ms} ms (API alone)`, s?.latencyMs.p50, ISSUE_TARGETS.seqP50Ms, true, ' ms', 2, notes.p50),
    judge(
      `seq: at least ${ISSUE_TARGETS.seqRate}/s (API alone)`,
      s?.registrationsPerSecond,
      ISSUE_TARGETS.seqRate,
      false,
      '/s',
      0,
      notes.rate,
    ),
    judge(
      `seq: API CPU per registration at most ${ISSUE_TARGETS.seqApiCpuMs} ms (API alone)`,
      seq?.apiCpuMsPerRegistration,
      ISSUE_TARGETS.seqApiCpuMs,
      true,
      ' ms',
      3,
      notes.cpu,
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
  const signedTarget = signatureTarget(scale?.signedVerification);
  if (!scale)
    return [
      ...targets.map((target): TargetResult => ({ target, measured: 'scale workload not run', status: 'not measured' })),
      signedTarget,
    ];
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
      measured: `${fmt(scale.bytesPerInvoice)} bytes${scale.bytesPerInvoice > ISSUE_TARGETS.bytesPerInvoice ? shortfall(scale.bytesPerInvoice, ISSUE_TARGETS.bytesPerInvoice, true, ' bytes', 0) : ''}${size}`,
      status: status(scale.bytesPerInvoice <= ISSUE_TARGETS.bytesPerInvoice),
    },
    signedTarget,
  ];
}

/** Signatures verified a second, judged on a chain of the stated size whose every sent record is signed. */
function signatureTarget(v: ScaleVerification | undefined): TargetResult {
  const target = `a chain's signatures verified at ${fmt(ISSUE_TARGETS.verifySignaturesPerSecond)} records/s or more (${fmt(ISSUE_TARGETS.signedChainRecords)} records, hashes, links and signatures)`;
  if (!v?.signatures) return { target, measured: 'scale workload not run', status: 'not measured' };
  const s = v.signatures;
  const allValid = v.ok && s.invalid === 0 && s.valid > 0;
  const rate = v.recordsPerSecond;
  const bound = ISSUE_TARGETS.verifySignaturesPerSecond;
  return {
    target,
    measured:
      `${fmt(rate)}/s, ${fmt(v.records)} records (${fmt(s.valid)} signatures valid, ${fmt(s.invalid)} invalid) in ${fmt(v.ms / 1000, 1)} s` +
      `${allValid ? '' : ', CHAIN OR SIGNATURES NOT VALID'}${rate < bound ? shortfall(rate, bound, false, '/s', 0) : ''}`,
    status: v.records < ISSUE_TARGETS.signedChainRecords ? 'not measured' : verdict(allValid && rate >= bound),
  };
}

/** Issue 35's targets judged from a run's results. */
export function evaluateIssueTargets(
  registrations: RegistrationResult[],
  scale: ScaleResult | null | undefined,
  floor: FloorResult[] = [],
): TargetResult[] {
  const seq = registrations.find((r) => r.workload === 'seq' && r.mode === 'api-alone');
  return [
    ...seqTargets(
      seq,
      floor.find((f) => f.workload === 'seq'),
    ),
    ...scaleTargets(scale),
  ];
}
