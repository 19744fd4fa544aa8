import type { ChainRecord } from '@vf/core';
import type { ResponseLine } from '@vf/xml';
import { increment } from './counters';
import { describeFinding } from './describe-finding';
import type { RecordJob } from './record-processing';
import { admissibleError } from './rules/admissible-rules';
import type { EnvironmentState, SimulatorContext } from './simulator-context';

/**
 * A record past every blocking check stored: `Correcto`, or `AceptadoConErrores` with the admissible error found (or
 * the code a fault injected), and counted as registered for its taxpayer.
 */
export function acceptRecord(
  ctx: SimulatorContext,
  env: EnvironmentState,
  job: RecordJob,
  record: ChainRecord,
  line: ResponseLine,
  injectedCode: number | undefined,
): ResponseLine {
  const { counters, behaviour } = ctx;
  const { registry } = env;
  const { rules } = job;
  const admissible =
    injectedCode !== undefined
      ? { code: injectedCode }
      : admissibleError(record, {
          ruleSet: rules.ruleSet,
          now: rules.now,
          toleranceSeconds: behaviour.timestampToleranceSeconds,
          chainExists: registry.chainHead(record) !== undefined,
        });
  line.state = admissible ? 'AceptadoConErrores' : 'Correcto';
  if (admissible) {
    line.errorCode = admissible.code;
    line.errorDescription = describeFinding(rules, admissible);
    counters.recordsAcceptedWithErrors += 1;
    increment(counters.lineCodes, admissible.code);
  }
  const outcome = { state: line.state, ...(admissible ? { errorCode: line.errorCode, errorDescription: line.errorDescription } : {}) };
  if (record.kind === 'cancellation') registry.putCancellation(record, outcome, job.presentation);
  else registry.putAlta(record, outcome, job.presentation);
  counters.recordsRegistered += 1;
  (counters.registeredByNif[record.id.issuerNif] ??= []).push({
    invoiceNumber: record.id.invoiceNumber,
    invoiceDate: record.id.invoiceDate,
    operation: line.operation,
    ...(record.kind !== 'cancellation' && record.flags?.subsanacion ? { correction: true as const } : {}),
    state: line.state,
    hash: record.hash,
    environment: env.name,
  });
  return line;
}
