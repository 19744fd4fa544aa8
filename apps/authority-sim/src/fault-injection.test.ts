import type { RegistrationRecord } from '@vf/core';
import { buildRegFactuRequest, parseRegFactuReply, type ParsedReply, type SubmissionResponse } from '@vf/xml';
import { httpsCall, startTestSimulator, type TestSimulator } from './testing/test-simulator';
import { freshChain, freshRecord } from './testing/sim-records';

// Faults a test switches on (POST /__sim/faults, sim.inject): the transport ones and the per-record codes. The
// behaviours observed on the real service have their own file (observed-behaviours.test.ts).

const TAXPAYER = '89890001K';
const header = { obligado: { name: `CONTRIBUYENTE ${TAXPAYER}`, nif: TAXPAYER } };

let t: TestSimulator;

beforeAll(async () => {
  t = await startTestSimulator({ behaviour: { waitSeconds: 0 } });
});
afterAll(() => t.close());
beforeEach(() => t.sim.reset());

async function send(records: RegistrationRecord[]) {
  const reply = await httpsCall(t.sim.url, { ca: t.ca, client: t.platform, body: buildRegFactuRequest(header, records) });
  return { ...reply, parsed: parseRegFactuReply(reply.body) };
}

function asResponse(parsed: ParsedReply): SubmissionResponse {
  if (parsed.kind !== 'response') throw new Error(`expected a response, got fault ${parsed.message}`);
  return parsed;
}

describe('request log', () => {
  it('keeps each SOAP request with its taxpayer, invoices and what it was answered, also over GET /__sim/requests', async () => {
    t.sim.inject({ kind: 'http503', next: 1 });
    const xml = buildRegFactuRequest(header, [freshRecord(TAXPAYER, 'L-1')]);
    await httpsCall(t.sim.url, { ca: t.ca, client: t.platform, body: xml });
    await httpsCall(t.sim.url, { ca: t.ca, client: t.platform, body: xml });
    expect(t.sim.state.requests).toMatchObject([
      { environment: 'sandbox', operation: 'RegFactu', nif: TAXPAYER, invoiceNumbers: ['L-1'], answer: 'http503' },
      { operation: 'RegFactu', invoiceNumbers: ['L-1'], answer: 'answered' },
    ]);
    const over = await httpsCall(t.sim.url.replace(/\/wlpl\/.*$/, '/__sim/requests'), { ca: t.ca, client: t.platform, method: 'GET' });
    expect(JSON.parse(over.body).requests).toHaveLength(2);
    t.sim.reset();
    expect(t.sim.state.requests).toHaveLength(0);
  });
});

describe('fault injection', () => {
  it('answers HTTP 503 and 500 (non-SOAP) for the configured number of requests, registering nothing', async () => {
    t.sim.inject([
      { kind: 'http503', next: 1 },
      { kind: 'http500', next: 1 },
    ]);
    const record = freshRecord(TAXPAYER, 'A-1');
    const xml = buildRegFactuRequest(header, [record]);
    const first = await httpsCall(t.sim.url, { ca: t.ca, client: t.platform, body: xml });
    const second = await httpsCall(t.sim.url, { ca: t.ca, client: t.platform, body: xml });
    const third = await httpsCall(t.sim.url, { ca: t.ca, client: t.platform, body: xml });
    expect([first.status, second.status, third.status]).toEqual([503, 500, 200]);
    expect(() => parseRegFactuReply(second.body)).toThrow();
    expect(asResponse(parseRegFactuReply(third.body)).sendState).toBe('Correcto');
    expect(t.sim.state.counters.faults).toMatchObject({ http503: 1, http500: 1 });
  });

  it('resets the connection without registering anything', async () => {
    t.sim.inject({ kind: 'connectionReset', next: 1 });
    await expect(send([freshRecord(TAXPAYER, 'A-1')])).rejects.toThrow();
    expect(t.sim.state.counters).toMatchObject({ recordsRegistered: 0, faults: { connectionReset: 1 } });
  });

  it('loses the reply AFTER registering: the client sees a socket error, the resend gets 3000', async () => {
    t.sim.inject({ kind: 'replyLost', next: 1 });
    const [record] = freshChain(TAXPAYER, 'A', 1);
    await expect(send([record])).rejects.toThrow();
    expect(t.sim.state.registry.find(record.id)?.state).toBe('Correcto');
    const resend = asResponse((await send([record])).parsed);
    expect(resend.lines[0]).toMatchObject({ errorCode: 3000, duplicate: { state: 'Correcta' } });
    expect(t.sim.state.counters.registeredByNif[TAXPAYER]).toHaveLength(1);
  });
});

describe('recordCode faults', () => {
  const base = () => t.sim.url.replace(/\/wlpl\/.*/, '');
  const addFaults = (body: string) =>
    httpsCall(`${base()}/__sim/faults`, { ca: t.ca, client: t.platform, body, contentType: 'application/json' });

  it('answers the next N records Incorrecto with the chosen code without registering them, then behaves normally', async () => {
    const configured = await addFaults('{"kind": "recordCode", "next": 2, "code": 1100}');
    expect(configured.status).toBe(200);
    const chain = freshChain(TAXPAYER, 'A', 3);
    const first = asResponse((await send(chain.slice(0, 1))).parsed);
    expect(first).toMatchObject({
      sendState: 'Incorrecto',
      lines: [{ state: 'Incorrecto', errorCode: 1100, errorDescription: 'Valor o tipo incorrecto del campo.' }],
    });
    const rest = asResponse((await send(chain.slice(1))).parsed);
    expect(rest.lines.map((l) => [l.state, l.errorCode])).toEqual([
      ['Incorrecto', 1100],
      ['Correcto', undefined],
    ]);
    expect(t.sim.state.registry.find(chain[0].id)).toBeUndefined();
    expect(t.sim.state.registry.find(chain[1].id)).toBeUndefined();
    expect(t.sim.state.registry.find(chain[2].id)?.state).toBe('Correcto');
    expect(t.sim.state.faults).toEqual([]);
    // the client chains rejected records too: no chain mismatch
    expect(t.sim.state.counters).toMatchObject({ recordsRejected: 2, recordsRegistered: 1, chainMismatches: 0, lineCodes: { '1100': 2 } });
  });

  it('refuses a malformed fault with 400, and reset drops a pending one', async () => {
    for (const body of [
      '{"kind": "recordCode", "next": 1}',
      '{"kind": "recordCode", "next": -1, "code": 1100}',
      '{"kind": "recordCode", "next": 1, "code": 42}',
      '{"kind": "recordCode", "next": 1, "code": 4102}',
      '{"kind": "meteorStrike"}',
      '3',
    ]) {
      const reply = await addFaults(body);
      expect(reply.status).toBe(400);
      expect(JSON.parse(reply.body).error).toMatch(/^fault 0: /);
    }
    t.sim.inject({ kind: 'recordCode', next: 5, code: 1100 });
    t.sim.reset();
    expect(t.sim.state.faults).toEqual([]);
    expect(asResponse((await send([freshRecord(TAXPAYER, 'A-1')])).parsed).sendState).toBe('Correcto');
  });
});
