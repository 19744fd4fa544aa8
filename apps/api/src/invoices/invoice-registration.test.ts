import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import IORedis from 'ioredis';
import request from 'supertest';
import { computeRegistrationHash, madridToday, toAeatDate } from '@vf/core';
import { chainJobId, createQueues, reconcileStranded } from '@vf/queue';
import { createSystem, createTaxpayer, invoiceBody, readyAccount, registerAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';
import { waitUntil } from '@vf/core/testing';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const DAY = 86_400_000;
const earlier = (days: number) => madridToday(new Date(Date.now() - days * DAY));
const GENERATED_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;
const reduce = {
  breakdown: [{ tax_type: '01', regime_type: '01', operation_type: 'S1', base_amount: -100, tax_rate: 21, tax_amount: -21 }],
  total_amount: -121,
  total_tax_amount: -21,
};
const corrects = { corrected_invoices: [{ invoice_number: 'F-ORIGINAL-1', invoice_date: earlier(5) }] };

async function countInvoices(): Promise<number> {
  const { rows } = await t.db.db.execute(sql`SELECT count(*)::int AS n FROM invoices`);
  return (rows[0] as { n: number }).n;
}

async function chainOf(invoiceId: string): Promise<string> {
  const { rows } = await t.db.db.execute(sql`SELECT chain_id FROM invoices WHERE id = ${invoiceId}`);
  return (rows[0] as { chain_id: string }).chain_id;
}

/** The huella recomputed from what GET returns: what an auditor would do. */
function recomputedHash(inv: Record<string, string | null>): string {
  return computeRegistrationHash({
    issuerNif: (inv.issuer as unknown as { nif: string }).nif,
    invoiceNumber: inv.invoice_number!,
    invoiceDate: toAeatDate(inv.invoice_date!),
    invoiceType: inv.invoice_type!,
    totalTax: inv.total_tax_amount!,
    total: inv.total_amount!,
    previousHash: inv.previous_hash ?? undefined,
    generatedAt: inv.generated_at!,
  });
}

describe('POST /api/v1/invoices', () => {
  it("registers an F1: the contract response, a chained huella, a sandbox QR URL and its chain's job", async () => {
    const { account, taxpayerId, systemId } = await readyAccount(t.app, { nif: '89890001K' });
    const body = invoiceBody(taxpayerId, systemId, { invoice_number: 'A&B 2025/001' });
    const res = await request(t.app).post('/api/v1/invoices').set(account.auth).send(body).expect(201);
    expect(res.body.message).toEqual(expect.any(String));
    expect(res.body.data).toMatchObject({
      id: expect.any(String),
      invoice_number: 'A&B 2025/001',
      hash: expect.stringMatching(/^[0-9A-F]{64}$/),
      authority_status: 'queued',
      record_type: 'registration',
      chain_position: 1,
      previous_hash: null,
      generated_at: expect.stringMatching(GENERATED_AT),
      warnings: [],
    });
    const fecha = toAeatDate(String(body.invoice_date));
    expect(res.body.data.qr_url).toBe(
      `https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?nif=89890001K&numserie=A%26B+2025%2F001&fecha=${fecha}&importe=121.00`,
    );

    const chainId = await chainOf(res.body.data.id);
    // The chain's sender is woken after the answer is sent.
    const job = await waitUntil(() => t.queues.submission.getJob(chainJobId(chainId)), "the chain's job");
    expect(job.data).toEqual({ chainId });

    const detail = (await request(t.app).get(`/api/v1/invoices/${res.body.data.id}`).set(account.auth).expect(200)).body.data;
    expect(recomputedHash(detail)).toBe(res.body.data.hash);
    expect(detail).toMatchObject({
      total_amount: '121.00',
      total_tax_amount: '21.00',
      breakdown: [
        {
          tax_type: '01',
          regime_type: '01',
          operation_type: 'S1',
          base_amount: '100.00',
          tax_rate: '21.00',
          tax_amount: '21.00',
          surcharge_rate: null,
          surcharge_amount: null,
        },
      ],
      issuer: { nif: '89890001K', name: 'Contribuyente de Pruebas' },
      computer_system: {
        NombreRazon: 'Software Vendor SL',
        NIF: 'B85905495',
        NombreSistemaInformatico: 'Facturador',
        IdSistemaInformatico: 'FA',
        Version: '1.0.0',
        NumeroInstalacion: 'INST-1',
        TipoUsoPosibleSoloVerifactu: 'S',
        TipoUsoPosibleMultiOT: 'S',
        IndicadorMultiplesOT: 'N',
      },
      environment: 'sandbox',
      generated_at: res.body.data.generated_at,
      authority_status: 'queued',
      status_history: [{ status: 'queued', at: expect.any(String), code: null, message: null }],
    });
  });

  it('chains each record to the previous one and keeps amounts exact', async () => {
    const { account, taxpayerId, systemId } = await readyAccount(t.app);
    const first = (await request(t.app).post('/api/v1/invoices').set(account.auth).send(invoiceBody(taxpayerId, systemId)).expect(201)).body
      .data;
    const odd = {
      breakdown: [{ tax_type: '01', regime_type: '01', operation_type: 'S1', base_amount: '0.10', tax_rate: 21, tax_amount: '0.02' }],
      total_amount: '0.12',
      total_tax_amount: 0.02,
    };
    const second = (
      await request(t.app)
        .post('/api/v1/invoices')
        .set(account.auth)
        .send(invoiceBody(taxpayerId, systemId, odd))
        .expect(201)
    ).body.data;
    expect(second).toMatchObject({ chain_position: 2, previous_hash: first.hash });
    const detail = (await request(t.app).get(`/api/v1/invoices/${second.id}`).set(account.auth).expect(200)).body.data;
    expect(detail).toMatchObject({
      previous_invoice_id: first.id,
      previous_hash: first.hash,
      total_amount: '0.12',
      total_tax_amount: '0.02',
    });
    expect(recomputedHash(detail)).toBe(second.hash);
    expect(detail.generated_at >= first.generated_at).toBe(true);
  });

  it.each([
    ['F2', { recipient: undefined }],
    ['F3', {}],
    ['R1', { ...corrects, ...reduce }],
    ['R2', { ...corrects, ...reduce }],
    ['R3', { ...corrects, ...reduce }],
    ['R4', { ...corrects, ...reduce }],
    ['R5', { ...corrects, ...reduce, recipient: undefined }],
  ])('registers %s', async (invoiceType, extra) => {
    const { account, taxpayerId, systemId } = await readyAccount(t.app);
    const body = invoiceBody(taxpayerId, systemId, { invoice_type: invoiceType, ...extra });
    const res = await request(t.app).post('/api/v1/invoices').set(account.auth).send(body).expect(201);
    const detail = (await request(t.app).get(`/api/v1/invoices/${res.body.data.id}`).set(account.auth).expect(200)).body.data;
    expect(detail.invoice_type).toBe(invoiceType);
    expect(detail.kind).toBe(invoiceType.startsWith('R') ? 'corrective' : 'normal');
    expect(recomputedHash(detail)).toBe(res.body.data.hash);
    if (invoiceType.startsWith('R')) {
      expect(detail).toMatchObject({
        rectification_type: 'I',
        corrected_invoices: corrects.corrected_invoices,
        total_amount: '-121.00',
        total_tax_amount: '-21.00',
      });
      expect(res.body.data.qr_url).toContain('importe=-121.00');
    }
  });

  it('registers a substitution corrective (S) with the rectified amounts', async () => {
    const { account, taxpayerId, systemId } = await readyAccount(t.app);
    const body = invoiceBody(taxpayerId, systemId, {
      invoice_type: 'R1',
      rectification_type: 'S',
      rectified_base_amount: 100,
      rectified_tax_amount: 21,
      ...corrects,
    });
    const res = await request(t.app).post('/api/v1/invoices').set(account.auth).send(body).expect(201);
    const detail = (await request(t.app).get(`/api/v1/invoices/${res.body.data.id}`).set(account.auth).expect(200)).body.data;
    expect(detail).toMatchObject({ rectification_type: 'S', rectified_base_amount: '100.00', rectified_tax_amount: '21.00' });
  });

  it('keeps generated_at from going backwards when the clock does', async () => {
    let clockOffsetMs = 0;
    const now = () => new Date(Date.now() - clockOffsetMs);
    const skewed = await createTestApp({ clock: now });
    try {
      const { account, taxpayerId, systemId } = await readyAccount(skewed.app);
      const register = () =>
        request(skewed.app)
          .post('/api/v1/invoices')
          .set(account.auth)
          .send(invoiceBody(taxpayerId, systemId, { invoice_date: madridToday(now()) }))
          .expect(201);
      const first = (await register()).body.data;
      clockOffsetMs = 10 * 60_000;
      const second = (await register()).body.data;
      expect(second.generated_at).toBe(first.generated_at);
      expect(second.previous_hash).toBe(first.hash);
    } finally {
      await skewed.close();
    }
  });

  it('uses the production QR host for production taxpayers', async () => {
    const { account, taxpayerId, systemId } = await readyAccount(t.app, { is_production: true, nif: '89890001K' });
    const res = await request(t.app).post('/api/v1/invoices').set(account.auth).send(invoiceBody(taxpayerId, systemId)).expect(201);
    expect(res.body.data.qr_url).toMatch(/^https:\/\/www2\.agenciatributaria\.gob\.es\/wlpl\/TIKE-CONT\/ValidarQR\?nif=89890001K&/);
    const detail = (await request(t.app).get(`/api/v1/invoices/${res.body.data.id}`).set(account.auth).expect(200)).body.data;
    expect(detail.environment).toBe('production');
  });

  it('sets IndicadorMultiplesOT once the account has more than one taxpayer', async () => {
    const { account, taxpayerId, systemId } = await readyAccount(t.app);
    await createTaxpayer(t.app, account, { nif: '89890002E', name: 'Segundo' });
    const res = await request(t.app).post('/api/v1/invoices').set(account.auth).send(invoiceBody(taxpayerId, systemId)).expect(201);
    const detail = (await request(t.app).get(`/api/v1/invoices/${res.body.data.id}`).set(account.auth).expect(200)).body.data;
    expect(detail.computer_system.IndicadorMultiplesOT).toBe('S');
  });

  it('refuses a duplicate number and date for the same taxpayer, stores nothing', async () => {
    const { account, taxpayerId, systemId } = await readyAccount(t.app);
    const body = invoiceBody(taxpayerId, systemId);
    await request(t.app).post('/api/v1/invoices').set(account.auth).send(body).expect(201);
    const before = await countInvoices();
    const res = await request(t.app).post('/api/v1/invoices').set(account.auth).send(body).expect(409);
    expect(res.body.code).toBe('duplicate_invoice');
    expect(await countInvoices()).toBe(before);
    // Same number on another date is another invoice.
    await request(t.app)
      .post('/api/v1/invoices')
      .set(account.auth)
      .send({ ...body, invoice_date: earlier(1) })
      .expect(201);
  });

  it('refuses an invalid invoice with field errors and stores nothing', async () => {
    const { account, taxpayerId, systemId } = await readyAccount(t.app);
    const before = await countInvoices();
    const res = await request(t.app)
      .post('/api/v1/invoices')
      .set(account.auth)
      .send(invoiceBody(taxpayerId, systemId, { invoice_type: 'R1', total_amount: 999 }))
      .expect(422);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'corrected_invoices', code: 'required' })]));
    for (const e of res.body.errors)
      expect(e).toEqual(expect.objectContaining({ field: expect.any(String), code: expect.any(String), message: expect.any(String) }));
    expect(await countInvoices()).toBe(before);
  });

  it('refuses a recipient that is the issuing taxpayer itself (AEAT 1193), on register and validate alike', async () => {
    const { account, taxpayerId, systemId } = await readyAccount(t.app, { nif: 'B85905495' });
    const body = invoiceBody(taxpayerId, systemId, { recipient: { name: 'Myself SL', nif: 'B85905495' } });
    const before = await countInvoices();
    for (const path of ['/api/v1/invoices', '/api/v1/invoices/validate']) {
      const res = await request(t.app).post(path).set(account.auth).send(body).expect(422);
      expect(res.body.errors).toEqual([
        expect.objectContaining({ field: 'recipient.nif', code: 'recipient_is_issuer', authority_code: 1193 }),
      ]);
    }
    expect(await countInvoices()).toBe(before);
  });

  it("treats another account's taxpayer or system as not found, without revealing it", async () => {
    const mine = await readyAccount(t.app);
    const theirs = await readyAccount(t.app);
    const before = await countInvoices();
    const res = await request(t.app)
      .post('/api/v1/invoices')
      .set(mine.account.auth)
      .send(invoiceBody(theirs.taxpayerId, theirs.systemId))
      .expect(404);
    expect(res.body.code).toBe('taxpayer_not_found');
    const systemOnly = await request(t.app)
      .post('/api/v1/invoices')
      .set(mine.account.auth)
      .send(invoiceBody(mine.taxpayerId, theirs.systemId))
      .expect(404);
    expect(systemOnly.body.code).toBe('system_not_found');
    // Another account's taxpayer answers exactly like one that does not exist at all.
    const unknown = await request(t.app)
      .post('/api/v1/invoices')
      .set(mine.account.auth)
      .send(invoiceBody(randomUUID(), mine.systemId))
      .expect(404);
    expect({ ...unknown.body, request_id: undefined }).toEqual({ ...res.body, request_id: undefined });
    expect(await countInvoices()).toBe(before);
    expect(JSON.stringify([res.body, systemOnly.body])).not.toContain('Contribuyente');
  });
});

describe('when Redis loses the job', () => {
  it('registration still succeeds with Redis down, and the failure is logged', async () => {
    const dead = new IORedis('redis://127.0.0.1:1', {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      lazyConnect: true,
      retryStrategy: () => null,
    });
    dead.on('error', () => undefined);
    const deadQueues = createQueues(dead, `vftest-dead-${randomUUID()}`);
    for (const queue of [deadQueues.submission, deadQueues.maintenance]) queue.on('error', () => undefined);
    const down = await createTestApp({ queues: deadQueues, enqueueTimeoutMs: 500 });
    try {
      const { account, taxpayerId, systemId } = await readyAccount(down.app);
      const res = await request(down.app).post('/api/v1/invoices').set(account.auth).send(invoiceBody(taxpayerId, systemId)).expect(201);
      expect(res.body.data.authority_status).toBe('queued');
      // Logged once the wake-up has failed, after the answer.
      const warning = await waitUntil(
        async () => down.logs.map((l) => JSON.parse(l)).find((l) => l.invoiceId === res.body.data.id),
        'the warning',
      );
      expect(warning).toMatchObject({ level: 40, msg: expect.stringContaining('not enqueued'), reqId: res.headers['x-request-id'] });
      await request(down.app).get(`/api/v1/invoices/${res.body.data.id}`).set(account.auth).expect(200);
    } finally {
      // Not down.close(): obliterating queues on a dead connection would wait forever.
      dead.disconnect();
      await down.db.destroy();
      await down.redis.quit();
      rmSync(down.certificateDir, { recursive: true, force: true });
    }
  });

  it('the reconciler adds back the job of a chain whose job vanished', async () => {
    const { account, taxpayerId, systemId } = await readyAccount(t.app);
    const id = (await request(t.app).post('/api/v1/invoices').set(account.auth).send(invoiceBody(taxpayerId, systemId)).expect(201)).body
      .data.id;
    const chainId = await chainOf(id);
    await waitUntil(() => t.queues.submission.getJob(chainJobId(chainId)), "the chain's job");
    await t.queues.submission.obliterate({ force: true });
    expect(await t.queues.submission.getJob(chainJobId(chainId))).toBeUndefined();

    expect(await reconcileStranded(t.db.db, t.queues.submission)).toBeGreaterThanOrEqual(1);
    expect((await t.queues.submission.getJob(chainJobId(chainId)))?.data).toEqual({ chainId });
  });
});

test('the account that registers must own the system even when the taxpayer is its own', async () => {
  const owner = await registerAccount(t.app);
  const taxpayerId = await createTaxpayer(t.app, owner);
  const other = await registerAccount(t.app);
  const foreignSystem = await createSystem(t.app, other);
  const res = await request(t.app).post('/api/v1/invoices').set(owner.auth).send(invoiceBody(taxpayerId, foreignSystem)).expect(404);
  expect(res.body.code).toBe('system_not_found');
});
