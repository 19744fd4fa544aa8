import type { VerifactuClient } from '../client.ts';
import { errorFromResponse, VerifactuError } from '../errors.ts';

/** The authority's public web server: its `Date` header is the authority's clock, and it asks for no certificate. */
export const AUTHORITY_URL = 'https://www2.agenciatributaria.gob.es/';

// The authority refuses a record stamped too far from its own clock (error 2004); a minute leaves margin to fix it.
const CLOCK_TOLERANCE_MS = 60_000;

type Check = [name: string, ok: boolean, detail: string];

/** How far a server's `Date` is ahead of this machine's clock, read at the middle of the round trip. */
async function offsetOf(read: () => Promise<Response>): Promise<number | undefined> {
  const sentAt = Date.now();
  const response = await read();
  const receivedAt = Date.now();
  // The service's answer was read by openapi-fetch; the authority's is not needed.
  if (response.body && !response.body.locked) await response.body.cancel();
  const date = Date.parse(response.headers.get('date') ?? '');
  return Number.isNaN(date) ? undefined : date - (sentAt + receivedAt) / 2;
}

const seconds = (ms: number) => `${ms > 0 ? '+' : ''}${Math.round(ms / 1000)} s`;

/**
 * This machine's clock and the service's against the authority's `Date` header: the service stamps each record with
 * the time it makes it, and the authority compares that with its own clock.
 */
async function clocks(client: VerifactuClient, authorityUrl: string): Promise<Check[]> {
  let authority: number | undefined;
  try {
    authority = await offsetOf(() => fetch(authorityUrl, { method: 'HEAD', redirect: 'manual' }));
  } catch (error) {
    return [['clock', false, `the authority (${authorityUrl}) could not be reached: ${(error as Error).message}`]];
  }
  if (authority === undefined) return [['clock', false, `the authority (${authorityUrl}) sent no Date header`]];
  const service = await offsetOf(async () => (await client.api.GET('/health')).response);
  const mine: Check = ['clock', Math.abs(authority) < CLOCK_TOLERANCE_MS, `this machine is ${seconds(-authority)} from the authority`];
  if (service === undefined) return [mine, ['service clock', false, 'the service sent no Date header']];
  const behind = service - authority;
  return [mine, ['service clock', Math.abs(behind) < CLOCK_TOLERANCE_MS, `the service is ${seconds(behind)} from the authority`]];
}

/** Every taxpayer of the account, page after page. */
async function* taxpayers(client: VerifactuClient) {
  let cursor: string | undefined;
  do {
    const { data, error, response } = await client.api.GET('/taxpayers', { params: { query: { limit: 100, cursor } } });
    if (!data) throw errorFromResponse(response, error);
    yield* data.data;
    cursor = data.next_cursor ?? undefined;
  } while (cursor);
}

async function keyAndCertificates(client: VerifactuClient): Promise<Check[]> {
  try {
    const account = await client.account();
    const checks: Check[] = [['api key', true, `account ${account.email}`]];
    for await (const t of taxpayers(client)) {
      const name = `certificate ${t.nif}`;
      if (t.certificate) {
        const { not_before, not_after, expired } = t.certificate;
        checks.push([name, !expired, `valid ${not_before} to ${not_after}${expired ? ' (expired)' : ''}`]);
      } else if (t.has_certificate) checks.push([name, false, 'not readable by the service: upload it again']);
      else checks.push([name, true, 'none (the platform signs as social collaborator)']);
    }
    return checks;
  } catch (error) {
    if (error instanceof VerifactuError) return [['api key', false, `${error.code}: ${error.detail}`]];
    throw error;
  }
}

/** The service reachable, the clocks, the key valid, and each taxpayer's certificate readable and in date. */
export async function doctorCommand(client: VerifactuClient, authorityUrl = AUTHORITY_URL): Promise<number> {
  let checks: Check[];
  try {
    const health = await client.health();
    checks = [
      ['service', health.status === 'ok', `status ${health.status}`],
      ...(await clocks(client, authorityUrl)),
      ...(await keyAndCertificates(client)),
    ];
  } catch (error) {
    checks = [['service', false, error instanceof Error ? error.message : String(error)]];
  }
  for (const [name, ok, detail] of checks) process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${name}: ${detail}\n`);
  return checks.every(([, ok]) => ok) ? 0 : 1;
}
