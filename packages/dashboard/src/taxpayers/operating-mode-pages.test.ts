import { sql } from 'drizzle-orm';
import request from 'supertest';
import { createTestCa, issueCertificate, toPkcs12 } from '@vf/certificates/testing';
import { createSystem, invoiceBody, uniqueNif, createTestApp, type TestApp } from '@vf/api/testing';
import { signUp, submitForm } from '../testing/dashboard-agent';

const PASSWORD = 'p12-Secret-Pass';
const ca = createTestCa();
const holder = issueCertificate(ca, { commonName: 'CONTRIBUYENTE', nif: '89890001K', notAfter: new Date(Date.now() + 400 * 86_400_000) });
const p12Base64 = toPkcs12(holder, PASSWORD, ca).toString('base64');

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the operating mode in the dashboard (Spanish first)', () => {
  it('changes to NO VERI*FACTU, lists the event log with its signed XML, and shows the integrity alarm', async () => {
    const a = await signUp(t.app, 'Gestoría Ejemplo', 'es');
    const systemId = await createSystem(t.app, a, { only_supports_verifactu: false });
    const tp = (
      await request(t.app)
        .post('/api/v1/taxpayers')
        .set(a.auth)
        .send({ nif: uniqueNif(), name: 'Contribuyente SL', certificate_p12_base64: p12Base64, certificate_password: PASSWORD })
        .expect(201)
    ).body.data;
    const page = `/app/taxpayers/${tp.id}`;
    expect((await a.agent.get(page).expect(200)).text).toMatch(/data-testid="operating-mode">VERI\*FACTU</);

    const changed = await submitForm(a.agent, page, `${page}/mode`, { operating_mode: 'no_verifactu' });
    expect(changed.status).toBe(303);
    const detail = (await a.agent.get(changed.headers.location).expect(200)).text;
    expect(detail).toContain('Modalidad guardada.');
    expect(detail).toMatch(/data-testid="operating-mode">NO VERI\*FACTU</);
    expect(detail).not.toContain('data-testid="integrity-alarm"');

    const events = (await a.agent.get(`${page}/events`).expect(200)).text;
    expect(events).toContain('Registro de eventos');
    expect(events).toContain('Inicio del funcionamiento como NO VERI*FACTU');
    const xmlLink = /href="(\/app\/taxpayers\/[^"]+\/events\/[^"]+\/xml)"/.exec(events)![1];
    const xml = await a.agent.get(xmlLink).expect(200);
    expect(xml.text).toContain('<sf:TipoEvento>01</sf:TipoEvento>');

    // A record tampered with in the database: the next registration finds it and the page shows the alarm.
    const first = (await request(t.app).post('/api/v1/invoices').set(a.auth).send(invoiceBody(tp.id, systemId)).expect(201)).body.data;
    await t.db.db.execute(sql`UPDATE invoices SET total_amount = '999.00' WHERE id = ${first.id}`);
    await request(t.app).post('/api/v1/invoices').set(a.auth).send(invoiceBody(tp.id, systemId)).expect(201);
    expect((await a.agent.get(page).expect(200)).text).toContain('Alarma de integridad');
    expect((await a.agent.get(`${page}/events`).expect(200)).text).toContain('Anomalía en los registros de facturación');
  });

  it('says in words why a change of mode is refused', async () => {
    const a = await signUp(t.app, 'Gestoría Ejemplo', 'es');
    const tp = (
      await request(t.app).post('/api/v1/taxpayers').set(a.auth).send({ nif: uniqueNif(), name: 'Sin Certificado SL' }).expect(201)
    ).body.data;
    const refused = await submitForm(a.agent, `/app/taxpayers/${tp.id}`, `/app/taxpayers/${tp.id}/mode`, {
      operating_mode: 'no_verifactu',
    });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('ningún certificado puede firmar por este contribuyente');
  });
});
