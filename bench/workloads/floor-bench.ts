import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { SERVICE_NODE_FLAGS } from '@vf/config';
import type { BenchOptions } from '../options';
import { runLoad } from '../load/run-load';
import type { FloorResult } from '../report/result-types';
import { medianBy, round } from '../report/stats';
import { ProcessMeter } from '../stack/process-meter';
import { ROOT, type Processes } from '../stack/processes';
import { REGISTRATION_WORKLOADS, type RegistrationWorkload } from './workloads';

const SERVER = path.join(__dirname, '../load/floor-main.ts');
/** The closed-loop shapes whose floor is measured: a lone client, and many over many taxpayers. */
export const FLOOR_WORKLOADS: RegistrationWorkload[] = ['seq', 'wide'];

/** Starts the floor's server with the API's Node flags; resolves once it listens. */
function startServer(processes: Processes): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS.api, '--import', 'tsx', SERVER], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  processes.track(child);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the HTTP floor's server exited with ${code}`)));
    child.once('message', (m: { port: number }) => resolve({ child, url: `http://127.0.0.1:${m.port}` }));
  });
}

/**
 * The HTTP floor: the load generator of the registration workloads (same invoices, headers and connections) against
 * a bare Express server in a process of its own (bench/load/floor-main.ts), its CPU read as the API's is, during the
 * measured rounds only. What any registration through Express costs here, before the service does anything.
 */
export async function runHttpFloor(processes: Processes, workloads: RegistrationWorkload[], opts: BenchOptions): Promise<FloorResult[]> {
  const shapes = FLOOR_WORKLOADS.filter((w) => workloads.includes(w));
  if (!shapes.length) return [];
  const { child, url } = await startServer(processes);
  const results: FloorResult[] = [];
  try {
    for (const workload of shapes) {
      const shape = REGISTRATION_WORKLOADS[workload];
      const taxpayerIds = Array.from({ length: shape.taxpayers }, (_, i) => `B${String(i).padStart(8, '0')}`);
      const meter = new ProcessMeter({ server: child.pid! }).start();
      const load = await runLoad(
        processes,
        {
          kind: 'http',
          baseUrl: url,
          tenant: { apiKey: 'vf_floor', systemId: 'floor', taxpayerIds },
          clients: shape.clients,
          numberPrefix: `FLOOR-${workload}`,
          warmupSeconds: Math.min(1, opts.warmupSeconds),
          rounds: opts.rounds,
          bound: { seconds: opts.baselineSeconds },
        },
        { measuring: () => meter.markCpuStart(), measured: () => meter.markCpuEnd() },
      );
      const usage = meter.stop().server;
      const answered = load.rounds.reduce((sum, r) => sum + r.registered, 0);
      const perRequest = (cpu: number | null | undefined) => (cpu != null && answered > 0 ? round(cpu / answered, 3) : null);
      const result: FloorResult = {
        workload,
        clients: shape.clients,
        rounds: load.rounds,
        summary: medianBy(load.rounds, (r) => r.registrationsPerSecond),
        serverCpuMsPerRequest: perRequest(usage.cpuMs),
        loadCpuMsPerRequest: perRequest(load.loadCpuMs),
        peakRssMb: usage.peakRssMb,
        errorSamples: load.errorSamples,
      };
      console.log(
        `HTTP floor ${workload}: ${result.summary?.registrationsPerSecond ?? '?'} req/s, server ${result.serverCpuMsPerRequest ?? '?'} ms CPU a request`,
      );
      results.push(result);
    }
  } finally {
    await processes.stop(child);
  }
  return results;
}
