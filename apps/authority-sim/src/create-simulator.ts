import type { InvoiceId } from '@vf/core';
import type { SimulatorControl } from './admin-routes';
import { CensusBook, type CensusEntry } from './census/census-book';
import { CENSUS_PATH } from './census/census-post';
import { createCounters, type SimulatorCounters } from './counters';
import { FaultBook } from './faults/fault-book';
import type { ActiveFault } from './faults/fault-types';
import { FlowControl } from './flow-control';
import { Registry } from './registry';
import { ScenarioBook } from './scenarios/scenario-book';
import type { LoggedRequest } from './request-log';
import { createRouter } from './router';
import type { EnvironmentState, RegistrationService, SimulatorContext } from './simulator-context';
import {
  DEFAULT_BEHAVIOUR,
  ENDPOINT_PATH,
  ENVIRONMENTS,
  PRODUCTION_PREFIX,
  REQUIREMENT_PATH,
  SCENARIO_PREFIX,
  STATIC_PATH,
  VALIDATION_PATHS,
  type Environment,
  type SimulatorBehaviour,
  type SimulatorOptions,
} from './simulator-types';
import { listenTls } from './tls-server';
import { listenVies, VIES_BASE_PATH } from './vies/vies-server';
import { staticFiles } from './wsdl-files';

export interface SimulatorState {
  /** Live counters (the same object across reset()). */
  readonly counters: SimulatorCounters;
  /** What the simulated sandbox (pre-production) service holds. */
  readonly registry: Registry;
  /** What each service holds. */
  readonly registries: Readonly<Record<Environment, Registry>>;
  /** What each RequerimientoSOAP service holds: the records sent on request, apart from the voluntary ones. */
  readonly requirementRegistries: Readonly<Record<Environment, Registry>>;
  readonly behaviour: SimulatorBehaviour;
  /** The faults switched on, in order, with what is left of their budgets. */
  readonly faults: readonly ActiveFault[];
  /** The SOAP requests received, oldest first (also GET /__sim/requests). */
  readonly requests: readonly LoggedRequest[];
}

export interface Simulator {
  /** Full VerifactuSOAP endpoint URL of the sandbox (pre-production) service. */
  url: string;
  /** The same endpoint of the production service: separate registry and flow-control timers. */
  productionUrl: string;
  /** The service for sandbox scenario records (the `Sandbox-Scenario` header): a registry of its own, never the authority's. */
  scenarioUrl: string;
  wsdlUrl: string;
  /** The census check (VNifV2): one service, answering as the authority's production one. */
  censusUrl: string;
  /** The RequerimientoSOAP endpoint of the sandbox service (records sent on the authority's request). */
  requirementUrl: string;
  /** The validation service for NO VERI*FACTU records (ValRegistroNoVerifactu; test environment only). */
  validationUrl: string;
  /** The VIES stand-in's REST API (POST {viesUrl}/check-vat-number), plain HTTP. */
  viesUrl: string;
  port: number;
  state: SimulatorState;
  configure: SimulatorControl['configure'];
  /** Switches behaviours of the real service on (see faults/fault-types.ts), globally or for one taxpayer, certificate or service. */
  inject: SimulatorControl['inject'];
  clearFaults: SimulatorControl['clearFaults'];
  /** Forgets registered records, flow-control timers, counters and faults, and sets the clock offset back to 0; keeps the other settings. */
  reset(): void;
  /** Holds an invoice as if the taxpayer had entered it through the authority's web form (so updates get 3004). */
  registerViaForm(environment: Environment, id: InvoiceId): void;
  /** Adds entries to the census (deregistered, revoked, unknown, not processed, or registered names); reset forgets them. */
  seedCensus: SimulatorControl['seedCensus'];
  /** Issues a requerimiento to a taxpayer: a remission quoting another reference is refused (4122); reset forgets them. */
  issueRequirement: SimulatorControl['issueRequirement'];
  close(): Promise<void>;
}

function services(service: RegistrationService): Record<Environment, EnvironmentState> {
  return Object.fromEntries(
    ENVIRONMENTS.map((name): [Environment, EnvironmentState] => [
      name,
      { name, service, registry: new Registry(), flow: new FlowControl() },
    ]),
  ) as Record<Environment, EnvironmentState>;
}

/** What tests and the admin routes may change in a running simulator. */
function simulatorControl(ctx: SimulatorContext): SimulatorControl {
  return {
    configure(patch: Partial<SimulatorBehaviour>) {
      Object.assign(ctx.behaviour, patch);
    },
    inject(faults) {
      return (Array.isArray(faults) ? faults : [faults]).map((fault) => ctx.faults.add(fault));
    },
    clearFaults(filter) {
      return ctx.faults.clear(filter);
    },
    reset() {
      for (const env of [...Object.values(ctx.environments), ...Object.values(ctx.requirementServices)]) {
        env.registry.clear();
        env.flow.clear();
      }
      ctx.issuedRequirements.clear();
      Object.assign(ctx.counters, createCounters());
      ctx.faults.clear();
      ctx.scenarios.clear();
      ctx.census.clear();
      ctx.requests.length = 0;
      ctx.behaviour.clockOffsetSeconds = 0;
    },
    registerViaForm(environment: Environment, id: InvoiceId) {
      ctx.environments[environment].registry.registerViaForm(id, ctx.now());
    },
    seedCensus(entries: readonly CensusEntry[]) {
      ctx.census.seed(entries);
    },
    issueRequirement(nif: string, reference: string) {
      let issued = ctx.issuedRequirements.get(nif);
      if (!issued) ctx.issuedRequirements.set(nif, (issued = new Set()));
      issued.add(reference);
    },
  };
}

/** A stand-in for AEAT's VERI*FACTU SOAP service over mutual TLS. A SIMULATOR: it never talks to AEAT. */
export async function createSimulator(opts: SimulatorOptions): Promise<Simulator> {
  const ctx: SimulatorContext = {
    behaviour: { ...DEFAULT_BEHAVIOUR, ...opts.behaviour },
    counters: createCounters(),
    faults: new FaultBook(),
    scenarios: new ScenarioBook(),
    requests: [],
    environments: services('verifactu'),
    requirementServices: services('requerimiento'),
    issuedRequirements: new Map(),
    collaboratorNifs: new Set(opts.collaboratorNifs),
    census: new CensusBook(),
    unknownNifs: new Set(opts.unknownNifs ?? []),
    now: opts.now ?? (() => new Date()),
    log: opts.log ?? (() => undefined),
  };
  const control = simulatorControl(ctx);
  const host = opts.host ?? '127.0.0.1';
  let files: Map<string, string> | undefined;
  let origin = '';
  const router = createRouter(ctx, control, () => (files ??= staticFiles(origin)));
  const { server, port } = await listenTls(opts.tls, host, opts.port ?? 0, router);
  const hostPart = host.includes(':') ? `[${host}]` : host;
  origin = `https://${hostPart}:${port}`;
  const vies = await listenVies(ctx, host, opts.viesPort ?? 0);
  return {
    url: `${origin}${ENDPOINT_PATH}`,
    productionUrl: `${origin}${PRODUCTION_PREFIX}${ENDPOINT_PATH}`,
    scenarioUrl: `${origin}${SCENARIO_PREFIX}${ENDPOINT_PATH}`,
    censusUrl: `${origin}${CENSUS_PATH}`,
    requirementUrl: `${origin}${REQUIREMENT_PATH}`,
    validationUrl: `${origin}${VALIDATION_PATHS[0]}`,
    viesUrl: `http://${hostPart}:${vies.port}${VIES_BASE_PATH}`,
    wsdlUrl: `${origin}${STATIC_PATH}/SistemaFacturacion.wsdl`,
    port,
    state: {
      counters: ctx.counters,
      registry: ctx.environments.sandbox.registry,
      registries: Object.fromEntries(ENVIRONMENTS.map((name) => [name, ctx.environments[name].registry])) as Record<Environment, Registry>,
      requirementRegistries: Object.fromEntries(ENVIRONMENTS.map((name) => [name, ctx.requirementServices[name].registry])) as Record<
        Environment,
        Registry
      >,
      behaviour: ctx.behaviour,
      get faults() {
        return ctx.faults.list();
      },
      requests: ctx.requests,
    },
    configure: control.configure,
    inject: control.inject,
    clearFaults: control.clearFaults,
    reset: control.reset,
    registerViaForm: control.registerViaForm,
    seedCensus: control.seedCensus,
    issueRequirement: control.issueRequirement,
    async close() {
      for (const s of [server, vies.server]) s.closeAllConnections();
      await Promise.all([server, vies.server].map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    },
  };
}
