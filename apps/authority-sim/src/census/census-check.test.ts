import { buildCensusRequest, parseCensusReply, type CensusQuestion } from '@vf/xml';
import { httpsCall, startTestSimulator, type TestSimulator } from '../testing/test-simulator';

// The census check (VNifV2) as a client meets it: over mutual TLS, one row per NIF asked, the quirks switched on.

const KNOWN = '89890001K';
const COMPANY = 'B85905495';
const GONE = '12345678Z';
const REVOKED = 'A58818501';
const UNKNOWN = '00000000T';
const BUSY = '11111111H';

let t: TestSimulator;

beforeAll(async () => {
  t = await startTestSimulator({ unknownNifs: [UNKNOWN] });
});
afterAll(() => t.close());
beforeEach(() => {
  t.sim.reset();
  t.sim.seedCensus([
    { nif: COMPANY, status: 'identified', name: 'Empresa de Pruebas, S.L.' },
    { nif: GONE, status: 'deregistered' },
    { nif: REVOKED, status: 'revoked' },
    { nif: BUSY, status: 'not_processed' },
  ]);
});

async function check(rows: CensusQuestion[]) {
  const reply = await httpsCall(t.sim.censusUrl, { ca: t.ca, client: t.platform, body: buildCensusRequest(rows) });
  return { status: reply.status, parsed: parseCensusReply(reply.body), body: reply.body };
}

function rowsOf(parsed: ReturnType<typeof parseCensusReply>) {
  if (parsed.kind !== 'census') throw new Error(`expected the census's answer, got a fault: ${parsed.message}`);
  return parsed.rows;
}

describe('census check (VNifV2)', () => {
  it('answers each kind of result, matching the name however it is accented, spaced or cased', async () => {
    const { status, parsed } = await check([
      { nif: KNOWN, name: 'APELLIDO NOMBRE' },
      { nif: COMPANY, name: '  empresa  de pruebas SL ' },
      { nif: COMPANY, name: 'EMPRESA PRUEBAS SOCIEDAD LIMITADA' },
      { nif: GONE, name: 'ALGUIEN' },
      { nif: REVOKED, name: 'OTRA SA' },
      { nif: UNKNOWN, name: 'NADIE' },
      { nif: BUSY, name: 'OCUPADO' },
      { nif: '12345678A', name: 'LETRA MAL' },
    ]);
    expect(status).toBe(200);
    expect(rowsOf(parsed)).toEqual([
      { nif: KNOWN, name: 'APELLIDO NOMBRE', result: 'IDENTIFICADO' },
      { nif: COMPANY, name: 'Empresa de Pruebas, S.L.', result: 'IDENTIFICADO' },
      { nif: COMPANY, name: 'Empresa de Pruebas, S.L.', result: 'NO IDENTIFICADO-SIMILAR' },
      { nif: GONE, name: 'ALGUIEN', result: 'IDENTIFICADO-BAJA' },
      { nif: REVOKED, name: 'OTRA SA', result: 'IDENTIFICADO-REVOCADO' },
      { nif: UNKNOWN, name: 'NADIE', result: 'NO IDENTIFICADO' },
      { nif: BUSY, name: 'OCUPADO', result: 'NO PROCESADO' },
      { nif: '12345678A', name: 'LETRA MAL', result: 'NO IDENTIFICADO' },
    ]);
  });

  it('takes entries from an operator over /__sim/census and forgets them on reset', async () => {
    const admin = t.sim.censusUrl.replace(/\/wlpl\/.*$/, '/__sim/census');
    const seeded = await httpsCall(admin, {
      ca: t.ca,
      client: t.platform,
      contentType: 'application/json',
      body: JSON.stringify({ entries: [{ nif: KNOWN, status: 'deregistered' }] }),
    });
    expect(JSON.parse(seeded.body)).toEqual({ seeded: 1 });
    expect(rowsOf((await check([{ nif: KNOWN, name: 'X' }])).parsed)[0]!.result).toBe('IDENTIFICADO-BAJA');
    const refused = await httpsCall(admin, {
      ca: t.ca,
      client: t.platform,
      contentType: 'application/json',
      body: '{"entries":[{"nif":"X"}]}',
    });
    expect(refused.status).toBe(400);
    t.sim.reset();
    expect(rowsOf((await check([{ nif: KNOWN, name: 'X' }])).parsed)[0]!.result).toBe('IDENTIFICADO');
  });

  it('repeats rows of the answer when told to, each with the same result', async () => {
    t.sim.inject({ kind: 'censusRepeatedRows', next: 1 });
    const rows = rowsOf(
      (
        await check([
          { nif: KNOWN, name: 'A' },
          { nif: GONE, name: 'B' },
        ])
      ).parsed,
    );
    expect(rows.length).toBeGreaterThan(2);
    expect(new Set(rows.map((row) => `${row.nif} ${row.result}`))).toEqual(new Set([`${KNOWN} IDENTIFICADO`, `${GONE} IDENTIFICADO-BAJA`]));
  });

  it('answers NO PROCESADO for the rows of the NIF a fault names', async () => {
    t.sim.inject({ kind: 'censusNotProcessed', nif: KNOWN, next: 1 });
    const rows = rowsOf(
      (
        await check([
          { nif: COMPANY, name: 'EMPRESA DE PRUEBAS SL' },
          { nif: KNOWN, name: 'A' },
        ])
      ).parsed,
    );
    expect(rows.map((row) => row.result)).toEqual(['IDENTIFICADO', 'NO PROCESADO']);
    expect(t.sim.state.counters.faults.censusNotProcessed).toBe(1);
  });

  it('fails without a body when told to, and refuses a request without rows or without a certificate', async () => {
    t.sim.inject({ kind: 'http500Empty', operation: 'VNifV2', next: 1 });
    const empty = await httpsCall(t.sim.censusUrl, { ca: t.ca, client: t.platform, body: buildCensusRequest([{ nif: KNOWN, name: 'A' }]) });
    expect(empty).toMatchObject({ status: 500, body: '' });
    const none = await httpsCall(t.sim.censusUrl, { ca: t.ca, client: t.platform, body: buildCensusRequest([]) });
    expect(none.status).toBe(500);
    expect(parseCensusReply(none.body)).toMatchObject({ kind: 'fault', side: 'client' });
    await expect(httpsCall(t.sim.censusUrl, { ca: t.ca, body: buildCensusRequest([{ nif: KNOWN, name: 'A' }]) })).rejects.toThrow();
    expect(t.sim.state.counters.censusRequests).toBe(2);
  });
});
