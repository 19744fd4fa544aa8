import { createCounters, type SimulatorCounters } from './counters';
import { FlowControl } from './flow-control';
import { Registry } from './registry';
import { createRouter } from './router';
import type { SimulatorContext } from './simulator-context';
import { DEFAULT_BEHAVIOUR, ENDPOINT_PATH, FAULT_KINDS, STATIC_PATH, type SimulatorBehaviour, type SimulatorOptions } from './simulator-types';
import { listenTls } from './tls-server';
import { staticFiles } from './wsdl-files';

export interface SimulatorState {
  /** Live counters (the same object across reset()). */
  readonly counters: SimulatorCounters;
  /** What the simulated authority holds. */
  readonly registry: Registry;
  readonly behaviour: SimulatorBehaviour;
}

export interface Simulator {
  /** Full VerifactuSOAP endpoint URL. */
  url: string;
  wsdlUrl: string;
  port: number;
  state: SimulatorState;
  configure(patch: Partial<SimulatorBehaviour>): void;
  /** Forgets registered records, flow-control timers, counters and pending fault plans; keeps the other settings. */
  reset(): void;
  close(): Promise<void>;
}

function copyBehaviour(b: SimulatorBehaviour): SimulatorBehaviour {
  const copy = { ...b };
  for (const kind of FAULT_KINDS) copy[kind] = { ...b[kind] };
  return copy;
}

/** A stand-in for AEAT's VERI*FACTU SOAP service over mutual TLS. A SIMULATOR: it never talks to AEAT. */
export async function createSimulator(opts: SimulatorOptions): Promise<Simulator> {
  const ctx: SimulatorContext = {
    behaviour: copyBehaviour({ ...DEFAULT_BEHAVIOUR, ...opts.behaviour }),
    counters: createCounters(),
    registry: new Registry(),
    flow: new FlowControl(),
    collaboratorNifs: new Set(opts.collaboratorNifs),
    unknownNifs: new Set(opts.unknownNifs ?? []),
    now: opts.now ?? (() => new Date()),
    log: opts.log ?? (() => undefined),
  };
  const control = {
    configure(patch: Partial<SimulatorBehaviour>) {
      Object.assign(ctx.behaviour, copyBehaviour({ ...ctx.behaviour, ...patch }));
    },
    reset() {
      ctx.registry.clear();
      ctx.flow.clear();
      Object.assign(ctx.counters, createCounters());
      for (const kind of FAULT_KINDS) ctx.behaviour[kind] = {};
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
    wsdlUrl: `${origin}${STATIC_PATH}/SistemaFacturacion.wsdl`,
    port,
    state: { counters: ctx.counters, registry: ctx.registry, behaviour: ctx.behaviour },
    configure: control.configure,
    reset: control.reset,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
