import request from 'supertest';
import { sql } from 'drizzle-orm';
import { periodEndAfter } from '@vf/chain';
import { createSystem, invoiceBody } from '@vf/api/testing';
import { waitUntil } from '@vf/core/testing';
import { WorkerTestEnv, type Party } from '../support/worker-test-env';
import { spawnWorker, stopWorker, workerStarted, type WorkerProcess } from '../support/worker-processes';

// NO VERI*FACTU summaries (event 10) written by real worker processes, as operators run them, through kills, an outage
// and an orderly stop. The six hours are four seconds here (SUMMARY_PERIOD_SECONDS, a setting for tests only): the
// periods still end at multiples of the period since the epoch, as the six-hour ones end at 00, 06, 12 and 18 UTC.
const PERIOD_S = 4;
const PERIOD_MS = PERIOD_S * 1000;

let env: WorkerTestEnv;
let party: Party;
let systemId: string;
const processes: WorkerProcess[] = [];
let spawned = 0;

beforeAll(async () => {
  env = await WorkerTestEnv.create({ env: { SUMMARY_PERIOD_SECONDS: String(PERIOD_S), WORKER_NICE: '0' } });
  party = await env.party();
  systemId = await createSystem(env.api, party.account, { only_supports_verifactu: false, installation_number: 'NVF-1' });
});
afterAll(async () => {
  await Promise.all(processes.map((p) => stopWorker(p, 'SIGKILL')));
  await env?.close();
});

async function start(): Promise<WorkerProcess> {
  const w = spawnWorker(`summaries-${++spawned}`, env.env);
  processes.push(w);
  await workerStarted(w);
  return w;
}

async function keptTaxpayer(): Promise<string> {
  const nif = env.freshNif();
  const body = { nif, name: `CONTRIBUYENTE ${nif}`, is_production: false, operating_mode: 'no_verifactu', ...env.certificateBody(nif) };
  const res = await request(env.api).post('/api/v1/taxpayers').set(party.account.auth).send(body).expect(201);
  return res.body.data.id;
}

async function registerOne(taxpayerId: string): Promise<void> {
  const res = await request(env.api).post('/api/v1/invoices').set(party.account.auth).send(invoiceBody(taxpayerId, systemId));
  expect(res.status).toBe(201);
  expect(res.body.data.authority_status).toBe('kept');
}

interface Summary {
  start: number;
  end: number;
  altas: number;
}

/** A taxpayer's summaries in chain order, and when its NO VERI*FACTU operation started (its event 01). */
async function summariesOf(taxpayerId: string): Promise<{ started: number; summaries: Summary[] }> {
  const { rows } = await env.db.db.execute<{
    event_type: string;
    generated_at: string;
    period_start: string | null;
    period_end: string | null;
    xml: string;
  }>(
    sql`SELECT e.event_type, e.generated_at, e.period_start, e.period_end, e.xml FROM sif_events e
        JOIN event_chains ec ON ec.id = e.event_chain_id JOIN chains c ON c.id = ec.chain_id
        WHERE c.taxpayer_id = ${taxpayerId} AND e.event_type IN ('01', '10') ORDER BY e.seq`,
  );
  const opened = rows.find((r) => r.event_type === '01');
  if (!opened) throw new Error('no event 01');
  const summaries = rows
    .filter((r) => r.event_type === '10')
    .map((r) => ({
      start: Date.parse(r.period_start!),
      end: Date.parse(r.period_end!),
      altas: Number(/<sf:NumeroDeRegistrosFacturacionAltaGenerados>(\d+)</.exec(r.xml)?.[1] ?? 0),
    }));
  return { started: Date.parse(opened.generated_at), summaries };
}

/** Waits until every period that ended before `until` is summarised for each taxpayer. */
async function summarisedTo(taxpayers: string[], until: number, what: string): Promise<void> {
  const due = periodEndAfter(new Date(until - PERIOD_MS), PERIOD_MS).getTime();
  await waitUntil(
    async () => {
      for (const id of taxpayers) {
        const { summaries } = await summariesOf(id);
        if ((summaries.at(-1)?.end ?? 0) < due) return false;
      }
      return true;
    },
    what,
    120_000,
    200,
  );
}

/** Resolves once `periods` whole periods have ended after now. */
async function periodsPass(periods: number): Promise<number> {
  const target = periodEndAfter(new Date(), PERIOD_MS).getTime() + (periods - 1) * PERIOD_MS + 100;
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, target - Date.now())));
  return Date.now();
}

test('summaries of two NO VERI*FACTU taxpayers by three worker processes through kills and an outage: one per period, caught up, and one before the last worker stops', async () => {
  const taxpayers = [await keptTaxpayer(), await keptTaxpayer()];
  let fleet: WorkerProcess[] = await Promise.all([start(), start(), start()]);
  await registerOne(taxpayers[0]);
  await summarisedTo(taxpayers, await periodsPass(2), 'two periods summarised by the fleet');

  // Two workers killed and replaced while periods end: the survivor and the replacements go on, nothing doubled.
  await Promise.all(fleet.slice(0, 2).map((w) => stopWorker(w, 'SIGKILL')));
  await registerOne(taxpayers[1]);
  fleet = [fleet[2], ...(await Promise.all([start(), start()]))];
  await summarisedTo(taxpayers, await periodsPass(2), 'periods summarised after the kills');

  // An outage: every worker killed for three periods, then one worker catches them all up.
  await Promise.all(fleet.map((w) => stopWorker(w, 'SIGKILL')));
  const outageFrom = Date.now();
  await registerOne(taxpayers[0]);
  const outageTo = await periodsPass(3);
  for (const id of taxpayers) expect((await summariesOf(id)).summaries.filter((s) => s.end > outageFrom)).toEqual([]);
  fleet = [await start(), await start()];
  await summarisedTo(taxpayers, outageTo, 'the outage caught up');

  // An orderly stop of one worker while another runs writes nothing; the last worker's stop writes one summary up to then.
  await stopWorker(fleet[0], 'SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, PERIOD_MS / 4));
  const stopAsked = Date.now();
  await stopWorker(fleet[1], 'SIGTERM');
  const stopped = Date.now();
  expect(fleet[1].output.join('')).toContain('"worker stopped"');

  for (const [i, id] of taxpayers.entries()) {
    const { started, summaries } = await summariesOf(id);
    // Every summary starts where the one before ended, the first where operation started: no period twice, none missed.
    let from = Math.floor(started / 1000) * 1000;
    for (const s of summaries) {
      expect(new Date(s.start).toISOString()).toBe(new Date(from).toISOString());
      from = s.end;
    }
    // Each summary but the last ends at a period's end: exactly one per period, through kills and the outage.
    const last = summaries.at(-1)!;
    for (const s of summaries) expect(s.end - s.start).toBeLessThanOrEqual(PERIOD_MS);
    for (const s of summaries.slice(0, -1)) expect(s.end % PERIOD_MS).toBe(0);
    expect(summaries.length).toBe(Math.floor(last.start / PERIOD_MS) - Math.floor(started / PERIOD_MS) + 1);
    // The last is the summary before shutdown, up to the moment the last worker stopped: the first worker's orderly
    // stop, another still running, wrote none (it would end off a period's end).
    expect(last.end).toBeGreaterThanOrEqual(stopAsked - 1000);
    expect(last.end).toBeLessThanOrEqual(stopped);
    expect(last.end % PERIOD_MS).not.toBe(0);
    // The records are counted in the periods they were generated in.
    expect(summaries.reduce((n, s) => n + s.altas, 0)).toBe(i === 0 ? 2 : 1);
  }
}, 300_000);
