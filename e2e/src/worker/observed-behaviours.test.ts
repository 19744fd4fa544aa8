import request from 'supertest';
import { sql } from 'drizzle-orm';
import type { InjectedFault, LoggedRequest } from '@vf/authority-sim';
import { codeBehaviour, type CodeAction } from '@vf/core';
import type { AuthorityStatus } from '@vf/db';
import { authorityClockOffset } from '@vf/metrics';
import { WorkerTestEnv, type Party } from '../support/worker-test-env';

// Every behaviour integrators met on the real service, switched on in the simulator, and what the service makes of
// it: the status the code catalogue prescribes, nothing the authority already holds sent again, and no chain sent
// again sooner than the catalogue's floor (read from the simulator's request log, not from the clock of the test).
// The floor is 60 s in production; here it is 1.5 s, above the simulator's 1 s waiting time, so that a retry paced
// only by flow control would show.
const FLOOR_SECONDS = 1.5;

let env: WorkerTestEnv;
let party: Party;
beforeAll(async () => {
  env = await WorkerTestEnv.create({ env: { SENDER_RETRY_MIN_SECONDS: String(FLOOR_SECONDS), AUTHORITY_TIMEOUT_MS: '4000' } });
  party = await env.party();
  await env.startWorker();
});
afterAll(async () => {
  await env?.close();
});

/** The status a record ends in when the authority answers `code`, as the catalogue prescribes. */
function prescribed(code: number): AuthorityStatus {
  const byAction: Record<CodeAction, AuthorityStatus> = {
    accepted_with_warnings: 'accepted_with_warnings',
    rejected: 'rejected',
    error: 'error',
    stop: 'error',
    // Retried, or settled through the Consulta service: the authority ends up holding it.
    retry: 'accepted',
    consulta: 'accepted',
  };
  return byAction[codeBehaviour(code).action];
}

/** A taxpayer with its own certificate that has had an answer, so the authority's short waiting time is known. */
async function establishedTaxpayer(certificate: 'own' | 'none' = 'own'): Promise<{ id: string; nif: string }> {
  const taxpayer = await env.taxpayer(party, { certificate });
  await env.settled(await env.register(party, taxpayer.id, 1));
  return taxpayer;
}

async function invoiceNumber(id: string): Promise<string> {
  const r = await env.db.db.execute<{ n: string }>(sql`SELECT invoice_number AS n FROM invoices WHERE id = ${id}`);
  return r.rows[0].n;
}

/** The requests the simulator received about one invoice, oldest first. */
function requestsAbout(number: string, operation: LoggedRequest['operation']): LoggedRequest[] {
  return env.sim.state.requests.filter((r) => r.operation === operation && r.invoiceNumbers.includes(number));
}

/** How many records of the invoice the simulated authority holds. */
function heldTimes(nif: string, number: string): number {
  return (env.sim.state.counters.registeredByNif[nif] ?? []).filter((r) => r.invoiceNumber === number).length;
}

/** No two sends of the invoice closer than the floor (a few ms of slack for the timestamps' rounding). */
function expectPaced(sends: LoggedRequest[]): void {
  for (let i = 1; i < sends.length; i += 1)
    expect(Date.parse(sends[i].at) - Date.parse(sends[i - 1].at)).toBeGreaterThanOrEqual(FLOOR_SECONDS * 1000 - 5);
}

async function apiView(id: string): Promise<{ authority_status: string; authority_code: number | null; authority_message: string | null }> {
  return (await request(env.api).get(`/api/v1/invoices/${id}`).set(party.account.auth).expect(200)).body.data;
}

interface Case {
  behaviour: string;
  faults: (nif: string) => InjectedFault[];
  status: AuthorityStatus;
  code?: number;
  /** RegFactu messages that carried the invoice. */
  sends: number;
  /** Whether the authority holds it in the end (once at most, always). */
  held: boolean;
  cause?: string;
}

const once = { next: 1 } as const;
const regFactu = (nif: string) => ({ nif, operation: 'RegFactu', ...once }) as const;
const consulta = (nif: string) => ({ nif, operation: 'Consulta', ...once }) as const;

const CASES: Case[] = [
  { behaviour: 'an HTML 503 page', faults: (nif) => [{ kind: 'http503', ...regFactu(nif) }], status: 'accepted', sends: 2, held: true },
  {
    behaviour: "a request that hangs past the client's timeout",
    faults: (nif) => [{ kind: 'hang', ...regFactu(nif) }],
    status: 'accepted',
    sends: 2,
    held: true,
  },
  {
    behaviour: 'a Codigo[102] Server fault',
    faults: (nif) => [{ kind: 'soapFault', code: 102, ...regFactu(nif) }],
    status: prescribed(102),
    sends: 2,
    held: true,
  },
  {
    behaviour: 'a Codigo[20009] Server fault',
    faults: (nif) => [{ kind: 'soapFault', code: 20009, ...regFactu(nif) }],
    status: prescribed(20009),
    sends: 2,
    held: true,
  },
  {
    behaviour: 'a record stored, then answered with an internal error: settled through Consulta, never sent again',
    faults: (nif) => [{ kind: 'storedThenFailed', ...regFactu(nif) }],
    status: 'accepted',
    sends: 1,
    held: true,
  },
  {
    behaviour: 'an answer lost after the record was stored: settled through Consulta, never sent again',
    faults: (nif) => [{ kind: 'replyLost', ...regFactu(nif) }],
    status: 'accepted',
    sends: 1,
    held: true,
  },
  {
    behaviour: 'a 3000 with RegistroDuplicado (the Consulta after the lost answer failed too)',
    faults: (nif) => [
      { kind: 'replyLost', ...regFactu(nif) },
      { kind: 'soapFault', code: 102, ...consulta(nif) },
    ],
    status: prescribed(3000),
    sends: 2,
    held: true,
  },
  {
    behaviour: 'a 3000 without RegistroDuplicado',
    faults: (nif) => [
      { kind: 'replyLost', ...regFactu(nif) },
      { kind: 'soapFault', code: 102, ...consulta(nif) },
      { kind: 'duplicateWithoutDetail', nif, ...once },
    ],
    status: prescribed(3000),
    sends: 2,
    held: true,
  },
  {
    behaviour: 'a retry code inside an HTTP 200 (whole message, 3501)',
    faults: (nif) => [{ kind: 'soapFault', code: 3501, httpStatus: 200, ...regFactu(nif) }],
    status: prescribed(3501),
    sends: 2,
    held: true,
  },
  {
    behaviour: 'a retry code inside an HTTP 200 (record line, 1129)',
    faults: (nif) => [{ kind: 'recordCode', code: 1129, nif, ...once }],
    status: prescribed(1129),
    sends: 2,
    held: true,
  },
  {
    behaviour: 'a wrong huella stored with 2000',
    faults: (nif) => [{ kind: 'recordCode', code: 2000, nif, ...once }],
    status: prescribed(2000),
    code: 2000,
    sends: 1,
    held: true,
  },
  {
    behaviour: 'a FechaHoraHusoGenRegistro format refused with 1244',
    faults: (nif) => [{ kind: 'recordCode', code: 1244, nif, ...once }],
    status: prescribed(1244),
    code: 1244,
    sends: 1,
    held: false,
  },
  {
    behaviour: 'PrimerRegistro where a chain already exists (2007): stored, and the user is told',
    faults: (nif) => [{ kind: 'recordCode', code: 2007, nif, ...once }],
    status: prescribed(2007),
    code: 2007,
    sends: 1,
    held: true,
  },
  {
    behaviour: 'HTTP 500 without a body (the certificate holder may not act for the taxpayer)',
    faults: (nif) => [{ kind: 'http500Empty', ...regFactu(nif) }],
    status: 'error',
    cause: 'certificate_refused',
    sends: 1,
    held: false,
  },
  {
    behaviour: 'a 401 @firma COD_066 (certificate not supported)',
    faults: (nif) => [{ kind: 'soapFault', code: 401, ...regFactu(nif) }],
    status: prescribed(401),
    code: 401,
    sends: 1,
    held: false,
  },
  {
    behaviour: 'a 4134 (service not active)',
    faults: (nif) => [{ kind: 'soapFault', code: 4134, ...regFactu(nif) }],
    status: prescribed(4134),
    code: 4134,
    sends: 1,
    held: false,
  },
  {
    behaviour: 'a 4139 (not enabled in production)',
    faults: (nif) => [{ kind: 'soapFault', code: 4139, ...regFactu(nif) }],
    status: prescribed(4139),
    code: 4139,
    sends: 1,
    held: false,
  },
];

// Each case has a taxpayer, a certificate and faults of its own, so the cases run side by side: what they wait for
// is the simulator's waiting time and the floor between sends, not the CPU. The tests after them change what every
// taxpayer meets (the simulator's clock, the platform's certificate) and run alone, once these have finished.
test.concurrent.each(CASES.map((c) => [c.behaviour, c] as const))('%s', async (_name, c) => {
  const taxpayer = await establishedTaxpayer();
  env.sim.inject(c.faults(taxpayer.nif));
  const [id] = await env.register(party, taxpayer.id, 1);
  const [state] = await env.settled([id]);
  const number = await invoiceNumber(id);

  expect(state).toMatchObject({ status: c.status, ...(c.code !== undefined && { code: c.code }) });
  if (c.cause) {
    const r = await env.db.db.execute<{ cause: string }>(sql`SELECT error_cause AS cause FROM invoices WHERE id = ${id}`);
    expect(r.rows[0].cause).toBe(c.cause);
  }
  const sends = requestsAbout(number, 'RegFactu');
  expect(sends).toHaveLength(c.sends);
  expectPaced(sends);
  expect(heldTimes(taxpayer.nif, number)).toBe(c.held ? 1 : 0);
  // What needs the user is said in plain words, with what to do.
  if (c.status === 'error') {
    const view = await apiView(id);
    const explained = c.code !== undefined ? codeBehaviour(c.code).text.en.explanation : /HTTP 500 with no content/;
    expect(view.authority_message).toEqual(expect.stringMatching(typeof explained === 'string' ? escape(explained) : explained));
  }
  expect(env.sim.state.faults.filter((f) => f.nif === taxpayer.nif)).toEqual([]);
});

function escape(text: string): RegExp {
  return new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
}

test.concurrent(
  'a lost answer to an anulación without prior record: the resend meets 3001, the Consulta service shows ours, it ends accepted, held once',
  async () => {
    const taxpayer = await establishedTaxpayer();
    env.sim.inject({ kind: 'recordCode', code: 1244, nif: taxpayer.nif, ...once });
    const [id] = await env.register(party, taxpayer.id, 1);
    expect((await env.settled([id]))[0]).toMatchObject({ status: 'rejected' });
    const number = await invoiceNumber(id);
    const cancelled = (env.sim.state.counters.lineCodes['3001'] ?? 0) + 1;
    // The answer to the anulación is lost, and so is the Consulta that follows: it must go again.
    env.sim.inject([
      { kind: 'replyLost', ...regFactu(taxpayer.nif) },
      { kind: 'soapFault', code: 102, ...consulta(taxpayer.nif) },
    ]);
    const cancellation = (await request(env.api).post(`/api/v1/invoices/${id}/cancel`).set(party.account.auth).send({}).expect(201)).body
      .data;
    const [state] = await env.settled([cancellation.id]);

    expect(codeBehaviour(3001).action).toBe('consulta');
    expect(state).toMatchObject({ status: 'accepted' });
    expect(env.sim.state.counters.lineCodes['3001']).toBe(cancelled);
    const held = (env.sim.state.counters.registeredByNif[taxpayer.nif] ?? []).filter((r) => r.invoiceNumber === number);
    expect(held.map((r) => r.operation)).toEqual(['Anulacion']);
    // The rejected alta, then the anulación twice, the second no sooner than the floor.
    const sends = requestsAbout(number, 'RegFactu');
    expect(sends).toHaveLength(3);
    expectPaced(sends.slice(1));
  },
);

test("a record more than 240 s from the authority's clock is stored with 2004, and the worker shows the offset", async () => {
  const taxpayer = await establishedTaxpayer();
  env.sim.configure({ clockOffsetSeconds: 600 });
  try {
    const [id] = await env.register(party, taxpayer.id, 1);
    const [state] = await env.settled([id]);
    expect(state).toMatchObject({ status: prescribed(2004), code: 2004 });
    expect(requestsAbout(await invoiceNumber(id), 'RegFactu')).toHaveLength(1);
    const offset = (await authorityClockOffset.get()).values[0].value;
    expect(offset).toBeGreaterThanOrEqual(598);
    expect(offset).toBeLessThanOrEqual(602);
  } finally {
    env.sim.configure({ clockOffsetSeconds: 0 });
  }
});

test('a 4141 stops every send under that certificate until an operator resumes it; nothing is retried meanwhile', async () => {
  // Two taxpayers presented with the platform's certificate: the suspension of one stops the other too.
  const first = await establishedTaxpayer('none');
  const second = await establishedTaxpayer('none');
  env.sim.inject({ kind: 'soapFault', code: 4141, ...regFactu(first.nif) });
  const [suspended] = await env.register(party, first.id, 1);
  expect((await env.settled([suspended]))[0]).toMatchObject({ status: prescribed(4141), code: 4141 });

  const [held] = await env.register(party, second.id, 1);
  expect((await env.settled([held]))[0]).toMatchObject({ status: 'error' });
  const cause = await env.db.db.execute<{ cause: string }>(sql`SELECT error_cause AS cause FROM invoices WHERE id = ${held}`);
  expect(cause.rows[0].cause).toBe('sender_stopped');
  expect(requestsAbout(await invoiceNumber(held), 'RegFactu')).toHaveLength(0);
  expect((await apiView(held)).authority_message).toMatch(/suspended its access \(code 4141\).*operator resumes/);
  expect((await apiView(suspended)).authority_message).toContain(codeBehaviour(4141).text.en.explanation);

  // The operator's command, as documented: list, then resume by fingerprint.
  const stops = await env.db.db.execute<{ fingerprint: string }>(sql`SELECT certificate_fingerprint AS fingerprint FROM sender_stops`);
  expect(stops.rows).toHaveLength(1);
  const { execFileSync } = await import('node:child_process');
  const run = (...args: string[]) =>
    execFileSync(process.execPath, ['scripts/dist/sender-stops.js', ...args], {
      env: { ...process.env, ...env.env, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
    });
  expect(run('list')).toContain(stops.rows[0].fingerprint);
  expect(run('resume', stops.rows[0].fingerprint)).toMatch(/^Resumed .*: 2 records back in the queue/);

  const states = await env.reach([suspended, held], ['accepted']);
  expect(states.map((s) => s.status)).toEqual(['accepted', 'accepted']);
  expect(requestsAbout(await invoiceNumber(suspended), 'RegFactu')).toHaveLength(2);
  expect(requestsAbout(await invoiceNumber(held), 'RegFactu')).toHaveLength(1);
  expect(run('list')).toBe('No certificate is stopped.\n');
});
