import type { InvoiceId } from '@vf/core';
import type { SimulatorControl } from './admin-routes';
import { CensusBook, type CensusEntry } from './census/census-book';
import { CENSUS_PATH } from './census/census-post';
import { createCounters, type SimulatorCounters } from './counters';
import { FaultBook } from './faults/fault-book';
import type { ActiveFault } from './faults/fault-types';
import { FlowControl } from './flow-control';
import { Registry } from './registry';
import type { LoggedRequest } from './request-log';
import { createRouter } from './router';
import type { EnvironmentState, SimulatorContext } from './simulator-context';
import {
  DEFAULT_BEHAVIOUR,
  ENDPOINT_PATH,
  ENVIRONMENTS,
  PRODUCTION_PREFIX,
  STATIC_PATH,
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
  wsdlUrl: string;
  /** The census check (VNifV2): one service, answering as the authority's production one. */
  censusUrl: string;
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
  close(): Promise<void>;
}

/** A stand-in for AEAT's VERI*FACTU SOAP service over mutual TLS. A SIMULATOR: it never talks to AEAT. */
export async function createSimulator(opts: SimulatorOptions): Promise<Simulator> {
  const ctx: SimulatorContext = {
    behaviour: { ...DEFAULT_BEHAVIOUR, ...opts.behaviour },
    counters: createCounters(),
    faults: new FaultBook(),
    requests: [],
    environments: Object.fromEntries(
      ENVIRONMENTS.map((name): [Environment, EnvironmentState] => [name, { name, registry: new Registry(), flow: new FlowControl() }]),
    ) as Record<Environment, EnvironmentState>,
    collaboratorNifs: new Set(opts.collaboratorNifs),
    census: new CensusBook(),
    unknownNifs: new Set(opts.unknownNifs ?? []),
    now: opts.now ?? (() => new Date()),
    log: opts.log ?? (() => undefined),
  };
  const control: SimulatorControl = {
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
      for (const env of Object.values(ctx.environments)) {
        env.registry.clear();
        env.flow.clear();
      }
      Object.assign(ctx.counters, createCounters());
      ctx.faults.clear();
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
  };
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
    censusUrl: `${origin}${CENSUS_PATH}`,
    viesUrl: `http://${hostPart}:${vies.port}${VIES_BASE_PATH}`,
    wsdlUrl: `${origin}${STATIC_PATH}/SistemaFacturacion.wsdl`,
    port,
    state: {
      counters: ctx.counters,
      registry: ctx.environments.sandbox.registry,
      registries: { sandbox: ctx.environments.sandbox.registry, production: ctx.environments.production.registry },
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
    async close() {
      for (const s of [server, vies.server]) s.closeAllConnections();
      await Promise.all([server, vies.server].map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    },
  };
}
