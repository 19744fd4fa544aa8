import type { VerifactuClient } from '../client.ts';
import { VerifactuError } from '../errors.ts';

// Records carry the time they are made; the authority refuses one too far from its own clock.
const CLOCK_TOLERANCE_MS = 60_000;

type Check = [name: string, ok: boolean, detail: string];

async function reachable(client: VerifactuClient): Promise<Check> {
  const sentAt = Date.now();
  const { response } = await client.api.GET('/health');
  const date = Date.parse(response.headers.get('date') ?? '');
  const skew = Number.isNaN(date) ? NaN : date - (sentAt + Date.now()) / 2;
  return Number.isNaN(skew)
    ? ['clock', false, 'the service sent no Date header']
    : ['clock', Math.abs(skew) < CLOCK_TOLERANCE_MS, `${Math.round(skew / 1000)} s from the service's clock`];
}

async function keyAndCertificates(client: VerifactuClient): Promise<Check[]> {
  try {
    const account = await client.account();
    const { data } = await client.api.GET('/taxpayers', { params: { query: { limit: 100 } } });
    const certificates: Check[] = (data?.data ?? []).map((t) => [
      `certificate ${t.nif}`,
      t.certificate ? !t.certificate.expired : t.signing_mode === 'social_collaborator',
      t.certificate ? `valid ${t.certificate.not_before} to ${t.certificate.not_after}` : 'none (signed by the platform)',
    ]);
    return [['api key', true, `account ${account.email}`], ...certificates];
  } catch (error) {
    if (error instanceof VerifactuError) return [['api key', false, `${error.code}: ${error.detail}`]];
    throw error;
  }
}

/** The service reachable, the key valid, each taxpayer's certificate in date, and this machine's clock. */
export async function doctorCommand(client: VerifactuClient): Promise<number> {
  let checks: Check[];
  try {
    const health = await client.health();
    checks = [
      ['service', health.status === 'ok', `status ${health.status}`],
      await reachable(client),
      ...(await keyAndCertificates(client)),
    ];
  } catch (error) {
    checks = [['service', false, error instanceof Error ? error.message : String(error)]];
  }
  for (const [name, ok, detail] of checks) process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${name}: ${detail}\n`);
  return checks.every(([, ok]) => ok) ? 0 : 1;
}
