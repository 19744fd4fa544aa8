import type { InvoiceId } from '@vf/core';
import type { SimulatorControl } from './admin-routes';
import { createCounters, type SimulatorCounters } from './counters';
import { FlowControl } from './flow-control';
import { Registry } from './registry';
import { createRouter } from './router';
import type { EnvironmentState, SimulatorContext } from './simulator-context';
import {
  DEFAULT_BEHAVIOUR,
  ENDPOINT_PATH,
  ENVIRONMENTS,
  FAULT_KINDS,
  PRODUCTION_PREFIX,
  STATIC_PATH,
  type Environment,
  type SimulatorBehaviour,
  type SimulatorOptions,
} from './simulator-types';
import { listenTls } from './tls-server';
import { staticFiles } from './wsdl-files';

export interface SimulatorState {
  /** Live counters (the same object across reset()). */
  readonly counters: SimulatorCounters;
  /** What the simulated sandbox (pre-production) service holds. */
  readonly registry: Registry;
  /** What each service holds. */
  readonly registries: Readonly<Record<Environment, Registry>>;
  readonly behaviour: SimulatorBehaviour;
}

export interface Simulator {
  /** Full VerifactuSOAP endpoint URL of the sandbox (pre-production) service. */
  url: string;
  /** The same endpoint of the production service: separate registry and flow-control timers. */
  productionUrl: string;
  wsdlUrl: string;
  port: number;
  state: SimulatorState;
  configure(patch: Partial<SimulatorBehaviour>): void;
  /** Forgets registered records, flow-control timers, counters and pending fault and rejection plans; keeps the other settings. */
  reset(): void;
  /** Holds an invoice as if the taxpayer had entered it through the authority's web form (so updates get 3004). */
  registerViaForm(environment: Environment, id: InvoiceId): void;
  close(): Promise<void>;
}

function copyBehaviour(b: SimulatorBehaviour): SimulatorBehaviour {
  const copy = { ...b };
  for (const kind of FAULT_KINDS) copy[kind] = { ...b[kind] };
  copy.rejectRecords = { ...b.rejectRecords };
  return copy;
}

/** A stand-in for AEAT's VERI*FACTU SOAP service over mutual TLS. A SIMULATOR: it never talks to AEAT. */
export async function createSimulator(opts: SimulatorOptions): Promise<Simulator> {
  const ctx: SimulatorContext = {
    behaviour: copyBehaviour({ ...DEFAULT_BEHAVIOUR, ...opts.behaviour }),
    counters: createCounters(),
    environments: Object.fromEntries(
      ENVIRONMENTS.map((name): [Environment, EnvironmentState] => [name, { name, registry: new Registry(), flow: new FlowControl() }]),
    ) as Record<Environment, EnvironmentState>,
    collaboratorNifs: new Set(opts.collaboratorNifs),
    unknownNifs: new Set(opts.unknownNifs ?? []),
    now: opts.now ?? (() => new Date()),
    log: opts.log ?? (() => undefined),
  };
  const control: SimulatorControl = {
    configure(patch: Partial<SimulatorBehaviour>) {
      Object.assign(ctx.behaviour, copyBehaviour({ ...ctx.behaviour, ...patch }));
    },
    reset() {
      for (const env of Object.values(ctx.environments)) {
        env.registry.clear();
        env.flow.clear();
      }
      Object.assign(ctx.counters, createCounters());
      for (const kind of FAULT_KINDS) ctx.behaviour[kind] = {};
      ctx.behaviour.rejectRecords = {};
    },
    registerViaForm(environment: Environment, id: InvoiceId) {
      ctx.environments[environment].registry.registerViaForm(id, ctx.now());
    },
  };
  const host = opts.host ?? '127.0.0.1';
  let files: Map<string, string> | undefined;
  let origin = '';
  const router = createRouter(ctx, control, () => (files ??= staticFiles(origin)));
  const { server, port } = await listenTls(opts.tls, host, opts.port ?? 0, router);
  origin = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    url: `${origin}${ENDPOINT_PATH}`,
    productionUrl: `${origin}${PRODUCTION_PREFIX}${ENDPOINT_PATH}`,
    wsdlUrl: `${origin}${STATIC_PATH}/SistemaFacturacion.wsdl`,
    port,
    state: {
      counters: ctx.counters,
      registry: ctx.environments.sandbox.registry,
      registries: { sandbox: ctx.environments.sandbox.registry, production: ctx.environments.production.registry },
      behaviour: ctx.behaviour,
    },
    configure: control.configure,
    reset: control.reset,
    registerViaForm: control.registerViaForm,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
