import type { Server } from 'node:http';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { computeRegistrationHash, toAeatDate } from '@vf/core';
import { invoiceBody, readyAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';

let t: TestApp;
let server: Server;
beforeAll(async () => {
  t = await createTestApp();
  server = t.app.listen(0);
});
afterAll(async () => {
  if (server) await new Promise((resolve) => server.close(resolve));
  await t?.close();
});

interface ChainRow {
  id: string;
  chain_seq: number;
  hash: string;
  previous_hash: string | null;
  previous_invoice_id: string | null;
  issuer_nif: string;
  invoice_number: string;
  invoice_date: string;
  invoice_type: string;
  total_amount: string;
  total_tax_amount: string;
  generated_at: string;
  generated_at_literal: string;
}

test('100 concurrent registrations on one taxpayer form one linear chain', async () => {
  const { account, taxpayerId, systemId } = await readyAccount(server);
  await t.db.db.execute(sql`UPDATE accounts SET plan_id = 'business' WHERE email = ${account.email}`);

  const responses = await Promise.all(
    Array.from({ length: 100 }, (_, i) =>
      request(server)
        .post('/api/v1/invoices')
        .set(account.auth)
        .send(invoiceBody(taxpayerId, systemId, { invoice_number: `C-${String(i).padStart(3, '0')}` })),
    ),
  );
  expect(responses.map((r) => r.status)).toEqual(Array(100).fill(201));

  const { rows } = await t.db.db.execute(sql`
    SELECT id, chain_seq, hash, previous_hash, previous_invoice_id, issuer_nif, invoice_number, invoice_date::text AS invoice_date,
           invoice_type, total_amount, total_tax_amount, generated_at, generated_at_literal
    FROM invoices WHERE taxpayer_id = ${taxpayerId} ORDER BY chain_seq`);
  const chain = rows as unknown as ChainRow[];

  // No gap, no fork: positions 1..100, each linked to exactly the one before.
  expect(chain.map((r) => r.chain_seq)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
  expect(chain[0].previous_hash).toBeNull();
  expect(chain[0].previous_invoice_id).toBeNull();
  for (let i = 1; i < chain.length; i++) {
    expect(chain[i].previous_hash).toBe(chain[i - 1].hash);
    expect(chain[i].previous_invoice_id).toBe(chain[i - 1].id);
    expect(Date.parse(chain[i].generated_at)).toBeGreaterThanOrEqual(Date.parse(chain[i - 1].generated_at));
  }
  expect(new Set(chain.map((r) => r.hash)).size).toBe(100);

  // Every huella recomputes from the stored values.
  for (const r of chain) {
    const hash = computeRegistrationHash({
      issuerNif: r.issuer_nif,
      invoiceNumber: r.invoice_number,
      invoiceDate: toAeatDate(r.invoice_date),
      invoiceType: r.invoice_type,
      totalTax: r.total_tax_amount,
      total: r.total_amount,
      previousHash: r.previous_hash ?? undefined,
      generatedAt: r.generated_at_literal,
    });
    expect(hash).toBe(r.hash);
  }

  // The responses told each client the hash that was stored, and the chain head points at the last record.
  const byId = new Map(chain.map((r) => [r.id, r]));
  for (const res of responses) expect(byId.get(res.body.data.id)?.hash).toBe(res.body.data.hash);
  const head = await request(server).get(`/api/v1/taxpayers/${taxpayerId}`).set(account.auth).expect(200);
  expect(head.body.data.chain).toEqual({ total_records: 100, last_hash: chain[99].hash });
});
