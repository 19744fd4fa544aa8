import type { SimulatorCounters } from './counters';
import type { FlowControl } from './flow-control';
import type { Registry } from './registry';
import type { Environment, SimulatorBehaviour } from './simulator-types';

/** One of the authority's services: what it holds and its flow-control timers. */
export interface EnvironmentState {
  name: Environment;
  registry: Registry;
  flow: FlowControl;
}

/** The simulator's mutable state, shared by its request handlers. */
export interface SimulatorContext {
  behaviour: SimulatorBehaviour;
  counters: SimulatorCounters;
  environments: Record<Environment, EnvironmentState>;
  collaboratorNifs: ReadonlySet<string>;
  unknownNifs: ReadonlySet<string>;
  now: () => Date;
  log: (line: string) => void;
}

/** Certificate holder may act for the taxpayer: the taxpayer itself or a colaborador social. */
export function mayActFor(ctx: SimulatorContext, holderNif: string | null, taxpayerNif: string): boolean {
  return holderNif !== null && (holderNif === taxpayerNif || ctx.collaboratorNifs.has(holderNif));
}
