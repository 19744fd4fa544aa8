import type { CensusBook } from './census/census-book';
import type { SimulatorCounters } from './counters';
import type { ScenarioBook } from './scenarios/scenario-book';
import type { FaultBook } from './faults/fault-book';
import type { FlowControl } from './flow-control';
import type { Registry } from './registry';
import type { LoggedRequest } from './request-log';
import type { RuleContext } from './rules/rule-context';
import type { Environment, SimulatorBehaviour } from './simulator-types';

/** Which of the authority's registration services: voluntary sending (VerifactuSOAP) or on request (RequerimientoSOAP). */
export type RegistrationService = 'verifactu' | 'requerimiento';

/** One of the authority's services: what it holds and its flow-control timers. */
export interface EnvironmentState {
  name: Environment;
  service: RegistrationService;
  registry: Registry;
  flow: FlowControl;
}

/** The simulator's mutable state, shared by its request handlers. */
export interface SimulatorContext {
  behaviour: SimulatorBehaviour;
  counters: SimulatorCounters;
  faults: FaultBook;
  /** The scenario service's memory: each record's sends, each invoice's consultas, each taxpayer's outage. */
  scenarios: ScenarioBook;
  /** Every SOAP request, oldest first (the last REQUEST_LOG_SIZE). */
  requests: LoggedRequest[];
  environments: Record<Environment, EnvironmentState>;
  /** The RequerimientoSOAP services: they share nothing with voluntary sending (AEAT web-service description §6.6). */
  requirementServices: Record<Environment, EnvironmentState>;
  /** The requerimientos the authority issued, by taxpayer NIF: a remission quotes one of them (else 4122). */
  issuedRequirements: Map<string, Set<string>>;
  collaboratorNifs: ReadonlySet<string>;
  /** The census check's own entries (the NIFs it does not list follow `unknownNifs`). */
  census: CensusBook;
  unknownNifs: ReadonlySet<string>;
  now: () => Date;
  log: (line: string) => void;
}

/** The simulated authority's clock: the machine's (or the test's) moved by the configured offset. */
export function authorityNow(ctx: SimulatorContext): Date {
  return new Date(ctx.now().getTime() + ctx.behaviour.clockOffsetSeconds * 1000);
}

/** What the rules know for a message of this taxpayer. */
export function ruleContext(ctx: SimulatorContext, headerNif: string): RuleContext {
  return { ruleSet: ctx.behaviour.ruleSet, now: authorityNow(ctx), headerNif, unknown: ctx.unknownNifs };
}

/** Certificate holder may act for the taxpayer: the taxpayer itself or a colaborador social. */
export function mayActFor(ctx: SimulatorContext, holderNif: string | null, taxpayerNif: string): boolean {
  return holderNif !== null && (holderNif === taxpayerNif || ctx.collaboratorNifs.has(holderNif));
}
