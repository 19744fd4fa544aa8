/** The registration workloads, each run with the worker stopped and with it running. */
export const REGISTRATION_WORKLOADS = {
  seq: { kind: 'http', clients: 1, taxpayers: 1, description: '1 client, 1 taxpayer' },
  hot: { kind: 'http', clients: 64, taxpayers: 1, description: '64 clients, 1 taxpayer' },
  wide: { kind: 'http', clients: 64, taxpayers: 100, description: '64 clients, 100 taxpayers' },
  paced: { kind: 'http', clients: 64, taxpayers: 100, rate: 1000, description: '64 clients, 100 taxpayers, 1,000 req/s offered' },
  bulk: { kind: 'bulk', clients: 1, taxpayers: 1, batchSize: 1000, description: 'batches of 1,000, 1 client, 1 taxpayer' },
  // The same as seq and bulk in NO VERI*FACTU: each record signed inside the registration (decision 0044).
  'seq-nvf': { kind: 'http', clients: 1, taxpayers: 1, noVerifactu: true, description: '1 client, 1 taxpayer, NO VERI*FACTU' },
  'bulk-nvf': {
    kind: 'bulk',
    clients: 1,
    taxpayers: 1,
    batchSize: 1000,
    noVerifactu: true,
    description: 'batches of 1,000, 1 client, 1 taxpayer, NO VERI*FACTU',
  },
} as const satisfies Record<string, WorkloadShape>;

export interface WorkloadShape {
  kind: 'http' | 'bulk';
  clients: number;
  taxpayers: number;
  /** Offered requests per second (all clients together); unset = closed loop, as fast as answers come. */
  rate?: number;
  batchSize?: number;
  /** The taxpayers work NO VERI*FACTU: each record is signed as it is registered, and kept (never sent). */
  noVerifactu?: boolean;
  description: string;
}

export type RegistrationWorkload = keyof typeof REGISTRATION_WORKLOADS;
export type WorkloadName = RegistrationWorkload | 'submission' | 'scale' | 'census';
export const WORKLOAD_NAMES: WorkloadName[] = [
  ...(Object.keys(REGISTRATION_WORKLOADS) as RegistrationWorkload[]),
  'submission',
  'scale',
  'census',
];

/** With the worker stopped the API registers alone; with it running, as `npm start` runs them. */
export type Mode = 'api-alone' | 'worker-running';
export const MODES: Mode[] = ['api-alone', 'worker-running'];
