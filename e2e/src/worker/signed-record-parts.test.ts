import { Agent } from 'node:https';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import type { ClientCertificate } from '@vf/authority-client';
import { createSystem, createTestApp, invoiceBody, readyAccount, type TestAccount, type TestApp } from '@vf/api/testing';
import { createTestCa, issueCertificate, toPkcs12 } from '@vf/certificates/testing';
import { signedRecordStore, submissionBatchStore } from '@vf/db';
import { signingIdentity, signRecord } from '@vf/signing';
import { xmlsec1Verifies } from '@vf/signing/testing';
import { planMessage } from '@vf/worker';

// A signed record is kept as its signature's own values and written again from its row (decision 0064): what is read
// back must be the very bytes that went, of every kind of record, and still verify with an independent verifier.
const PASSWORD = 'p12-Secret-Pass';
const ca = createTestCa();
const holder = issueCertificate(ca, { commonName: 'TITULAR ÑANDÚ', nif: 'B85905495' });
const certificate: ClientCertificate = {
  mode: 'taxpayer',
  agent: new Agent(),
  subject: 'CN=TITULAR',
  fingerprint: 'AA',
  signer: signingIdentity(holder),
};

let t: TestApp;
let account: TestAccount;
let taxpayerId: string;
let systemId: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ account, taxpayerId, systemId } = await readyAccount(t.app));
});
afterAll(async () => {
  certificate.agent.destroy();
  await t.close();
});

const post = (path: string, body: Record<string, unknown>) => request(t.app).post(path).set(account.auth).send(body);

/** The forms each record is kept in, by record id. */
async function formsOf(ids: string[]): Promise<Map<string, string>> {
  const { rows } = await t.db.db.execute<{ invoice_id: string; kept: string }>(
    sql`SELECT invoice_id, CASE WHEN form IS NOT NULL THEN 'parts' WHEN packed IS NOT NULL THEN 'packed' ELSE 'text' END AS kept
        FROM signed_records WHERE invoice_id = ANY(${sql.param(ids)}::uuid[])`,
  );
  return new Map(rows.map((r) => [r.invoice_id, r.kept]));
}

/** The chain's records as its sender plans them: the message's records, each with the bytes it carries. */
async function message(chainId: string) {
  const waiting = await submissionBatchStore.load(t.db.db, chainId, 1000);
  const authority = { mode: 'simulator', simulatorUrl: 'https://127.0.0.1:1/x', useSealHosts: false, requestTimeoutMs: 1000 } as const;
  const plan = await planMessage({
    ...{ chainId, waiting, held: undefined, taxpayerId, certificate, authority: authority as never },
    ...{ incidentAfterSeconds: 120, signRecords: true, now: new Date() },
  });
  const sent = plan.message!;
  // The request goes as [head, open, record, close, open, record, close, ..., tail].
  const bytes = new Map(sent.records.map((r, i) => [r.invoiceId, sent.request[2 + 3 * i]]));
  return { sent, bytes };
}

test('records signed for a message, of every kind, read back as the bytes that went, kept as parts, and verify with xmlsec1', async () => {
  const accented = await post(
    '/api/v1/invoices',
    invoiceBody(taxpayerId, systemId, {
      description: 'Reparación de señales «Ñandú» & cía — 5 € <urgente>',
      recipient: { name: 'Müller & Söhne, S.L.', nif: 'B85905495' },
    }),
  ).expect(201);
  const bare = await post('/api/v1/invoices', invoiceBody(taxpayerId, systemId, { invoice_type: 'F2', recipient: undefined })).expect(201);
  const plain = await post('/api/v1/invoices', invoiceBody(taxpayerId, systemId)).expect(201);
  await post('/api/v1/invoices', invoiceBody(taxpayerId, systemId, { invoice_type: 'F2', recipient: undefined })).expect(201);
  // A correction or a cancellation follows an answered record: these two were accepted, the others still wait.
  await t.db.db.execute(sql`UPDATE invoices SET authority_status = 'accepted' WHERE id IN (${plain.body.data.id}, ${bare.body.data.id})`);
  await request(t.app)
    .put(`/api/v1/invoices/${plain.body.data.id}`)
    .set(account.auth)
    .send(invoiceBody(taxpayerId, systemId, { invoice_number: plain.body.data.invoice_number, description: 'Corregida: señal' }))
    .expect(201);
  await post(`/api/v1/invoices/${bare.body.data.id}/cancel`, { reason: 'anulada' }).expect(201);
  const {
    rows: [{ chain_id: chainId }],
  } = await t.db.db.execute<{ chain_id: string }>(sql`SELECT chain_id FROM invoices WHERE id = ${accented.body.data.id}`);

  const { sent, bytes } = await message(chainId);
  await t.db.db.transaction((tx) => signedRecordStore.keep(tx, sent.signed));
  const ids = [...bytes.keys()];
  const { rows: kinds } = await t.db.db.execute<{ record_type: string }>(
    sql`SELECT record_type FROM invoices WHERE id = ANY(${sql.param(ids)}::uuid[]) ORDER BY record_type`,
  );
  expect(kinds.map((k) => k.record_type)).toEqual(['cancellation', 'correction', 'registration', 'registration']);
  expect([...(await formsOf(ids)).values()]).toEqual(Array(4).fill('parts'));

  const read = await signedRecordStore.of(t.db.db, ids);
  for (const id of ids) {
    expect(Buffer.from(read.get(id)!, 'utf8').equals(bytes.get(id)!)).toBe(true);
    expect(xmlsec1Verifies(read.get(id)!, ca.certPem)).toMatchObject({ ok: true });
  }
  // A resend reads them back through the sender's own reader, and carries the same bytes.
  const again = await message(chainId);
  for (const id of ids) expect(again.bytes.get(id)!.equals(bytes.get(id)!)).toBe(true);
  expect(again.sent.signed).toEqual([]);
});

test('a NO VERI*FACTU record, signed when registered, reads back as the bytes its answer carried', async () => {
  const p12 = toPkcs12(issueCertificate(ca, { commonName: 'CONTRIBUYENTE', nif: '89890001K' }), PASSWORD, ca).toString('base64');
  const kept = (
    await post('/api/v1/taxpayers', {
      ...{ nif: '89890001K', name: 'Contribuyente SL', operating_mode: 'no_verifactu' },
      ...{ certificate_p12_base64: p12, certificate_password: PASSWORD },
    }).expect(201)
  ).body.data;
  const bothWays = await createSystem(t.app, account, { only_supports_verifactu: false, supports_multiple_taxpayers: true });
  const answers = [];
  for (const description of ['Señal de ñandú', 'Otra señal «Ü»']) {
    answers.push((await post('/api/v1/invoices', invoiceBody(kept.id, bothWays, { description })).expect(201)).body.data);
  }
  const ids = answers.map((a) => a.id as string);
  expect([...(await formsOf(ids)).values()]).toEqual(['parts', 'parts']);
  const read = await signedRecordStore.of(t.db.db, ids);
  for (const answer of answers) {
    expect(Buffer.from(read.get(answer.id)!, 'utf8').equals(Buffer.from(answer.signed_record.xml_base64, 'base64'))).toBe(true);
    expect(xmlsec1Verifies(read.get(answer.id)!, ca.certPem)).toMatchObject({ ok: true });
  }
});

test('a record its row cannot write again, or of another signer form, is kept packed, and reads back byte for byte', async () => {
  const unsignedOf = async () => {
    const { id } = (await post('/api/v1/invoices', invoiceBody(taxpayerId, systemId)).expect(201)).body.data;
    const xml = (await request(t.app).get(`/api/v1/invoices/${id}/records/${id}/xml`).set(account.auth).expect(200)).text;
    return { id: id as string, unsigned: xml.replace(/^<\?xml[^>]*\?>\n/, '') };
  };
  const [changed, foreignId, otherTime] = [await unsignedOf(), await unsignedOf(), await unsignedOf()];
  const identity = signingIdentity(holder);
  const sent = [
    // Signed over other text than its row writes: the row would rebuild a different record.
    {
      invoiceId: changed.id,
      xml: signRecord(changed.unsigned.replace('<sum1:DescripcionOperacion>', '<sum1:DescripcionOperacion>x'), identity, {
        at: new Date(),
      }),
    },
    // A signature named as no signer of this service names it.
    { invoiceId: foreignId.id, xml: signRecord(foreignId.unsigned, identity, { at: new Date(), id: 'firma-1' }) },
    // A signing time written otherwise than its parts would write it again.
    {
      invoiceId: otherTime.id,
      xml: signRecord(otherTime.unsigned, identity, { at: new Date() }).replace(/(<xades:SigningTime>[^<]*)Z</, '$1+00:00<'),
    },
  ];
  await t.db.db.transaction((tx) => signedRecordStore.keep(tx, sent));
  expect([...(await formsOf(sent.map((s) => s.invoiceId))).values()]).toEqual(['packed', 'packed', 'packed']);
  const read = await signedRecordStore.of(
    t.db.db,
    sent.map((s) => s.invoiceId),
  );
  for (const s of sent) expect(read.get(s.invoiceId)).toBe(s.xml);
  expect(xmlsec1Verifies(read.get(foreignId.id)!, ca.certPem)).toMatchObject({ ok: true });
});

test('a row holds one form: parts, packed bytes and text never together, and parts never without their signature', async () => {
  const { id } = (await post('/api/v1/invoices', invoiceBody(taxpayerId, systemId)).expect(201)).body.data;
  const refusal = (query: ReturnType<typeof sql>) =>
    t.db.db.execute(query).then(
      () => 'written',
      (err: { cause?: { constraint?: string } }) => err.cause?.constraint,
    );
  expect(
    await refusal(
      sql`INSERT INTO signed_records (invoice_id, xml, form, signature_value, signing_time) VALUES (${id}, 'x', 1, '\\x00', now())`,
    ),
  ).toBe('signed_records_one_form');
  expect(await refusal(sql`INSERT INTO signed_records (invoice_id, form) VALUES (${id}, 1)`)).toBe('signed_records_parts_whole');
});
