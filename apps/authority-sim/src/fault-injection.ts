import type { FaultKind, FaultPlan, SimulatorBehaviour } from './simulator-types';

/**
 * Decides, per SOAP request, whether a configured fault fires. A `next` budget is consumed first;
 * otherwise the probability applies. Mutates the behaviour's plan so GET /__sim/state shows what is left.
 */
export function faultFires(behaviour: SimulatorBehaviour, kind: FaultKind, random: () => number = Math.random): boolean {
  const plan: FaultPlan = behaviour[kind];
  if (plan.next && plan.next > 0) {
    plan.next -= 1;
    return true;
  }
  return plan.probability !== undefined && plan.probability > 0 && random() < plan.probability;
}
