import { eq, sql } from 'drizzle-orm';
import request from 'supertest';
import { explainCause } from '@vf/core';
import { invoices } from '@vf/db';
import { createSystem, createTaxpayer, invoiceBody, createTestApp, type TestApp } from '@vf/api/testing';
import { signUp } from '../testing/dashboard-agent';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('overview', () => {
  it("shows this month's usage, the authority's refusals with their codes, and what waits per chain", async () => {
    const a = await signUp(t.app);
    const taxpayerId = await createTaxpayer(t.app, { ...a }, { name: 'Ferretería López SL' });
    const systemId = await createSystem(t.app, { ...a });
    const ids: string[] = [];
    for (const n of ['O-1', 'O-2', 'O-3']) {
      ids.push(
        (
          await request(t.app)
            .post('/api/v1/invoices')
            .set(a.auth)
            .send(invoiceBody(taxpayerId, systemId, { invoice_number: n }))
            .expect(201)
        ).body.data.id,
      );
    }
    await t.db.db
      .update(invoices)
      .set({ authorityStatus: 'rejected', authorityCode: 1104, authorityMessage: 'Valor del campo NumSerieFactura incorrecto' })
      .where(eq(invoices.id, ids[0]));
    await t.db.db.execute(
      sql`INSERT INTO send_states (chain_id, next_send_at) SELECT id, now() + interval '45 seconds' FROM chains WHERE taxpayer_id = ${taxpayerId}`,
    );

    const page = (await a.agent.get('/app').expect(200)).text;
    expect(page).toContain('3 <small>of 100 invoices</small>');
    // The code in the reader's words (an English page here), not the authority's Spanish text.
    expect(page).toContain(`<strong>1104</strong> ${explainCause({ code: 1104 })!.en.explanation}`);
    expect(page).toContain(`<a href="/app/invoices/${ids[0]}">O-1</a>`);
    // Two records still wait; the next message may go in about 45 s.
    expect(page).toMatch(/Ferretería López SL<\/a>[\s\S]*?data-testid="waiting">2<\/td>/);
    // One row per chain, labelled with its environment.
    expect(page).toMatch(
      /Ferretería López SL<\/a> <span class="muted">[^<]+<\/span> <span class="badge badge--sandbox">Sandbox<\/span><\/td>/,
    );
    const spanish = (await a.agent.get('/app').set('Accept-Language', 'es').expect(200)).text;
    expect(spanish).toMatch(
      /Ferretería López SL<\/a> <span class="muted">[^<]+<\/span> <span class="badge badge--sandbox">Pruebas<\/span><\/td>/,
    );
    expect(page).toMatch(/data-testid="next-send">[^<]*\(in \d+ s\)/);
    // Counts per status, normal and corrective apart, each linking to its filtered list.
    expect(page).toContain('<a href="/app/invoices?status=queued">2</a>');
    expect(page).toContain('<a href="/app/invoices?status=rejected">1</a>');
  });

  it("warns in the reader's language how many records wait because the authority does not answer, and since when", async () => {
    const a = await signUp(t.app);
    const taxpayerId = await createTaxpayer(t.app, { ...a });
    const systemId = await createSystem(t.app, { ...a });
    for (const n of ['W-1', 'W-2'])
      await request(t.app)
        .post('/api/v1/invoices')
        .set(a.auth)
        .send(invoiceBody(taxpayerId, systemId, { invoice_number: n }))
        .expect(201);
    expect((await a.agent.get('/app').expect(200)).text).not.toContain('data-testid="outage-warning"');

    await t.db.db.execute(
      sql`INSERT INTO send_states (chain_id, consecutive_failures, failing_since) SELECT id, 7, '2026-03-02T08:30:00Z' FROM chains WHERE taxpayer_id = ${taxpayerId}`,
    );
    const page = (await a.agent.get('/app').expect(200)).text;
    expect(page).toMatch(
      /data-testid="outage-warning"[\s\S]*<strong>2 records are waiting for the authority<\/strong> because it has not answered since 02\/03\/2026 09:30/,
    );
    const spanish = (await a.agent.get('/app').set('Accept-Language', 'es-ES,es;q=0.9').expect(200)).text;
    expect(spanish).toMatch(
      /data-testid="outage-warning"[\s\S]*<strong>2 registros esperan a la AEAT<\/strong> porque no responde desde el 02\/03\/2026 09:30/,
    );
  });

  it('says so when nothing was refused and nothing waits', async () => {
    const a = await signUp(t.app);
    const page = (await a.agent.get('/app').expect(200)).text;
    expect(page).toContain('0 <small>of 100 invoices</small>');
    expect(page).toContain('None: the authority has not refused or flagged any of your invoices.');
    expect(page).toContain('Nothing is waiting');
  });
});
