import type { IncomingMessage } from 'node:http';
import { FaultBook } from '../faults/fault-book';
import type { FaultSubject } from '../faults/fault-types';
import { requestInvoiceNumbers } from '../request-log';
import type { SimulatorContext } from '../simulator-context';
import { recordHuella, SCENARIO_HEADER, SCENARIO_WAIT_SECONDS, type ScenarioPlan } from './scenario-book';

/**
 * A request of the scenario service, as its scenario says: the simulator's context for this request alone, with the
 * scenario's faults in place of the operator's and the scenario service's waiting time, and what else the plan asks.
 */
export function scenarioContext(
  ctx: SimulatorContext,
  req: IncomingMessage,
  xml: string,
  subject: FaultSubject,
): { ctx: SimulatorContext; plan: ScenarioPlan } {
  const header = req.headers[SCENARIO_HEADER];
  const plan = ctx.scenarios.plan(
    typeof header === 'string' ? header : undefined,
    {
      operation: subject.operation,
      nif: subject.nif,
      huella: recordHuella(xml),
      invoiceNumber: requestInvoiceNumbers(xml, subject.operation)[0],
    },
    ctx.now().getTime(),
  );
  const faults = new FaultBook();
  for (const fault of plan.faults) faults.add(fault);
  return { ctx: { ...ctx, faults, behaviour: { ...ctx.behaviour, waitSeconds: SCENARIO_WAIT_SECONDS } }, plan };
}
