import type { ScaleVerification } from '../report/result-types';
import { round } from '../report/stats';
import { cpuMs, rssMb } from '../stack/process-meter';
import type { Stack } from '../stack/stack';
import { get } from './scale-http';

/**
 * `GET /chain/{nif}/verification` of a whole chain on the idle API: records a second of wall time, the API's CPU a
 * record and its peak RSS (sampled every 200 ms: a streamed walk keeps it flat whatever the chain's length), and the
 * signatures the walk found valid, invalid or missing.
 */
export async function measureVerification(stack: Stack, apiKey: string, nif: string): Promise<ScaleVerification> {
  let peakRss = rssMb(stack.api.pid) ?? 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(stack.api.pid) ?? 0)), 200);
  const cpuBefore = cpuMs(stack.api.pid);
  const answer = await get(`${stack.apiUrl}/api/v1/chain/${nif}/verification`, apiKey).finally(() => clearInterval(sampler));
  const cpuAfter = cpuMs(stack.api.pid);
  if (answer.status !== 200) throw new Error(`the chain's verification answered ${answer.status}: ${answer.body.slice(0, 300)}`);
  const { data } = JSON.parse(answer.body) as {
    data: { valid: boolean; verified: number; signatures: ScaleVerification['signatures'] };
  };
  return {
    records: data.verified,
    ok: data.valid,
    ms: round(answer.ms, 0)!,
    recordsPerSecond: Math.round(data.verified / (answer.ms / 1000)),
    apiCpuMsPerRecord: cpuBefore === null || cpuAfter === null ? null : round((cpuAfter - cpuBefore) / Math.max(data.verified, 1), 4),
    apiPeakRssMb: Math.round(peakRss),
    signatures: data.signatures,
  };
}
