import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { ClientCertificates, SoapTransport } from '@vf/authority-client';
import { startTestSimulator, type TestSimulator } from '@vf/authority-sim/testing';
import { toPkcs12 } from '@vf/certificates/testing';
import type { AppConfig } from '@vf/config';
import { codeBehaviour, madridToday } from '@vf/core';
import { remissionStore, signedRecordStore, type RemissionView } from '@vf/db';
import { createTestDatabase, type TestDatabase } from '@vf/db/testing';
import { keptSignedRecords } from '../support/kept-records';
import { sendRemissionStep, type SendRemissionDeps } from '@vf/worker';

const NIF = '89890001K';
const OTHER_NIF = '89890002E';
const REFERENCE = 'REQ2026000777';

let db: TestDatabase;
let t: TestSimulator;
let certificates: ClientCertificates;

const config = (t: TestSimulator): Pick<AppConfig, 'authority' | 'sender'> =>
  ({
    authority: { mode: 'simulator', simulatorUrl: t.sim.url, simulatorCaPath: '', useSealHosts: false, requestTimeoutMs: 30_000 },
    sender: {
      backoffBaseMs: 10,
      backoffMaxMs: 50,
      retryMinSeconds: 0,
      errorAfterSeconds: 60,
      incidentAfterSeconds: 600,
      workerConcurrency: 1,
      signRecords: true,
    },
  }) as Pick<AppConfig, 'authority' | 'sender'>;

// The worker's remission turn run in this process against the simulator, with the faults a test can place exactly:
// one turn at a time, a sender that loses its lease between sending a message and recording its answer.

/** What went over the wire: each request's FinRequerimiento, reference and records, and its bytes. */
interface Sent {
  end: string | undefined;
  reference: string | undefined;
  records: number;
  bytes: Buffer;
}

function recordingTransport(sent: Sent[], after?: (n: number) => Promise<void>): SoapTransport {
  const real = new SoapTransport({ timeoutMs: 30_000 });
  const transport = Object.create(real) as SoapTransport;
  transport.send = async (operation, endpoint, agent, request) => {
    const bytes = Buffer.concat(request as Buffer[]);
    const text = bytes.toString('utf8');
    sent.push({
      end: /<sum1:FinRequerimiento>([^<]*)</.exec(text)?.[1],
      reference: /<sum1:RefRequerimiento>([^<]*)</.exec(text)?.[1],
      records: text.split('<sum:RegistroFactura>').length - 1,
      bytes,
    });
    const exchange = await real.send(operation, endpoint, agent, request);
    await after?.(sent.length);
    return exchange;
  };
  return transport;
}

function deps(transport: SoapTransport, workerId: string): SendRemissionDeps {
  return {
    db: db.db,
    config: config(t),
    certificates,
    transport,
    logger: pino({ level: process.env.REMISSION_DEBUG ? 'info' : 'silent' }),
    workerId,
    leaseTtlMs: 30_000,
    stopping: () => false,
  };
}

/** Turn after turn while `more` holds, each when flow control allows it (the authority's waiting time here is 0). */
async function runWhile(d: SendRemissionDeps, id: string, more: () => boolean): Promise<void> {
  for (let turn = 0; turn < 30; turn += 1) {
    if (!more()) return;
    const step = await sendRemissionStep(d, id);
    if ('finished' in step) return;
    const wait = step.nextAt.getTime() - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  throw new Error('the remission did not finish in 30 turns');
}

const runToTheEnd = (d: SendRemissionDeps, id: string) => runWhile(d, id, () => true);

async function started(accountId: string, taxpayerId: string, reference = REFERENCE): Promise<RemissionView> {
  const today = madridToday();
  const remission = await remissionStore.startOnce(db.db, { accountId, taxpayerId, reference, from: today, to: today });
  if ('refused' in remission) throw new Error(`refused: ${remission.refused}`);
  return remission;
}

beforeAll(async () => {
  [db, t] = await Promise.all([
    createTestDatabase(),
    startTestSimulator({ taxpayerNifs: [NIF, OTHER_NIF], behaviour: { waitSeconds: 0 } }),
  ]);
  const dir = mkdtempSync(join(tmpdir(), 'remission-'));
  writeFileSync(join(dir, 'platform.p12'), toPkcs12(t.platform, 'pw', t.ca));
  certificates = new ClientCertificates({
    masterKey: randomBytes(32),
    platformCertificate: { path: join(dir, 'platform.p12'), password: 'pw' },
    serverCaPem: t.ca.certPem,
  });
});
afterAll(async () => {
  await Promise.all([db?.destroy(), t?.close()]);
});

test('2,500 kept records through a fault and a lost sender: each delivered once, signed and unchanged, FinRequerimiento=S only on the last message', async () => {
  const kept = await keptSignedRecords(db.db, { nif: NIF, count: 2500, signer: t.platform });
  t.sim.issueRequirement(NIF, REFERENCE);
  // Five messages of signed records: the schema and signature checks of each would cost the simulator seconds of CPU a
  // message on a shared machine; the second test keeps them on, and the bytes sent are compared with the kept ones here.
  t.sim.configure({ validateSchema: false });
  const remission = await started(kept.accountId, kept.taxpayerId);
  expect(remission).toMatchObject({ status: 'sending', recordCount: 2500, messageCount: 3 });
  expect(remission.messages.map((m) => [m.recordCount, m.isLast])).toEqual([
    [1000, false],
    [1000, false],
    [500, true],
  ]);
  // One remission at a time per chain.
  const today = madridToday();
  const second = await remissionStore.startOnce(db.db, { ...kept, reference: 'REQ2', from: today, to: today });
  expect(second).toEqual({ refused: 'remission_in_progress' });

  const sent: Sent[] = [];
  const lostSender = deps(
    recordingTransport(sent, async (n) => {
      // After the first message, the authority stores the second and then fails (a Server fault): it goes again.
      if (n === 1) t.sim.inject({ kind: 'storedThenFailed', nif: NIF, next: 1 });
      // The last message reached the authority, then its sender lost its lease (as a killed worker's expires) before it
      // could record the answer: whoever takes over finds the message in flight.
      if (n === 4)
        await db.db.execute(
          sql`UPDATE remissions SET lease_owner = NULL, lease_until = NULL, next_send_at = now() WHERE id = ${remission.id}`,
        );
    }),
    'worker-a',
  );
  await runWhile(lostSender, remission.id, () => sent.length < 4);
  await runToTheEnd(deps(recordingTransport(sent), 'worker-b'), remission.id);

  // Five requests: the second message and the last went twice, each time the same message, never a new one.
  expect(sent.map((s) => [s.records, s.end, s.reference])).toEqual([
    [1000, 'N', REFERENCE],
    [1000, 'N', REFERENCE],
    [1000, 'N', REFERENCE],
    [500, 'S', REFERENCE],
    [500, 'S', REFERENCE],
  ]);
  expect(sent[2].bytes.equals(sent[1].bytes)).toBe(true);
  expect(sent[4].bytes.equals(sent[3].bytes)).toBe(true);
  // The records went as kept: their signed bytes, byte for byte.
  const kept1 = (await signedRecordStore.of(db.db, [kept.invoiceIds[1500]])).get(kept.invoiceIds[1500])!;
  expect(sent[1].bytes.includes(Buffer.from(kept1, 'utf8'))).toBe(true);

  // The authority holds each record once, in the requerimiento service only.
  const held = t.sim.state.requirementRegistries.sandbox.all().map((s) => s.record.id.invoiceNumber);
  expect(held).toHaveLength(2500);
  expect(new Set(held)).toEqual(new Set(Array.from({ length: 2500 }, (_, i) => `KEPT-${i + 1}`)));
  expect(t.sim.state.registries.sandbox.all()).toHaveLength(0);
  expect(t.sim.state.counters.flowControlViolations).toBe(0);

  const done = (await remissionStore.get(db.db, kept.accountId, kept.taxpayerId, remission.id))!;
  expect(done.status).toBe('completed');
  expect(done.messages.map((m) => [m.status, m.attempts, m.accepted, m.duplicates, m.rejected])).toEqual([
    ['answered', 1, 1000, 0, 0],
    ['answered', 2, 0, 1000, 0],
    ['answered', 2, 0, 500, 0],
  ]);
});

afterEach(() => t.sim.configure({ validateSchema: true }));

test('a reference the authority did not issue: the message is refused with 4122, the remission stops with the catalogue’s words', async () => {
  const kept = await keptSignedRecords(db.db, { nif: OTHER_NIF, count: 3, signer: t.platform });
  const remission = await started(kept.accountId, kept.taxpayerId, 'REQNOTISSUED');
  const sent: Sent[] = [];
  await runToTheEnd(deps(recordingTransport(sent), 'worker-c'), remission.id);
  expect(sent).toHaveLength(1);
  const failed = (await remissionStore.get(db.db, kept.accountId, kept.taxpayerId, remission.id))!;
  expect(failed).toMatchObject({ status: 'failed', errorCode: 4122 });
  expect(failed.messages[0]).toMatchObject({ status: 'refused', attempts: 1 });
  expect(codeBehaviour(4122)).toMatchObject({ level: 'message', action: 'error' });
  expect(t.sim.state.requirementRegistries.sandbox.all().filter((s) => s.record.id.issuerNif === OTHER_NIF)).toHaveLength(0);
});
