import request from 'supertest';
import { madridToday } from '@vf/core';
import { signIn } from '@vf/api/testing';
import { WorkerTestEnv, type Party } from '../support/worker-test-env';

// The history a real worker writes (sends, retries, rejections, answers settled through the Consulta service,
// cancellation and reactivation), read on the dashboard's invoice page in Spanish and in English.
let env: WorkerTestEnv;
let party: Party;

beforeAll(async () => {
  // After the lost reply the chain's next message waits out the answer deadline (plus the waiting time): the
  // authority may still be processing the message. 4 s, as in observed-behaviours.test.ts, rather than the helper's 20 s.
  env = await WorkerTestEnv.create({ env: { AUTHORITY_TIMEOUT_MS: '4000' } });
  party = await env.party();
  await env.startWorker();
});
afterAll(async () => {
  await env?.close();
});

const api = () => request(env.api);

/** What a reader sees: text and attributes a browser shows, without code, XML and text marked as Spanish. */
function visibleText(page: string): string {
  const shown = [...page.matchAll(/\s(?:title|aria-label|alt|placeholder|data-confirm)="([^"]*)"/g)].map((m) => m[1]);
  const body = page
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<(code|pre)[^>]*>[\s\S]*?<\/\1>/g, ' ')
    .replace(/<(p|span|div)[^>]* lang="[^"]+"[^>]*>[\s\S]*?<\/\1>/g, ' ')
    .replace(/<[^>]+>/g, ' ');
  return `${body} ${shown.join(' ')}`.replace(/&#39;/g, "'").replace(/&amp;/g, '&').replace(/\s+/g, ' ');
}

const ENGLISH =
  /\b(sent to the authority|accepted by the authority|attempt|next attempt|the authority|rejected|accepted with errors|error before sending|resent on request|Consulta service|holds this very record|failing since|transport error|the|of the)\b/g;

function invoice(taxpayerId: string, number: string, description: string) {
  return {
    taxpayer_id: taxpayerId,
    computer_system_id: party.systemId,
    invoice_number: number,
    invoice_date: madridToday(),
    invoice_type: 'F1',
    description,
    recipient: { name: 'Cliente SL', nif: 'B85905495' },
    breakdown: [{ tax_type: '01', regime_type: '01', operation_type: 'S1', base_amount: '100.00', tax_rate: '10', tax_amount: '10.00' }],
    total_amount: '110.00',
    total_tax_amount: '10.00',
  };
}

async function settledRecord(id: string) {
  const [state] = await env.settled([id]);
  return state;
}

test('a Spanish invoice page tells the whole history in Spanish, with Spanish rates; the English one in English', async () => {
  const taxpayer = await env.taxpayer(party, { certificate: 'own' });
  // A first answer sets the chain's waiting time (1 s here): a send without an answer waits that long before the next.
  await env.settled(await env.register(party, taxpayer.id, 1));
  const number = 'ES-1';
  // A 503 (retried), then a lost reply (settled through the Consulta service after a 3000).
  env.sim.inject([
    { kind: 'http503', next: 1 },
    { kind: 'replyLost', next: 1 },
  ]);
  const [id] = await env.register(party, taxpayer.id, 1, invoice(taxpayer.id, number, 'Servicios'));
  expect(await settledRecord(id)).toMatchObject({ status: 'accepted' });

  // Cancelled, a reactivation refused by the authority, then one accepted.
  const cancelled = (await api().post(`/api/v1/invoices/${id}/cancel`).set(party.account.auth).send({}).expect(201)).body.data;
  expect(await settledRecord(cancelled.id)).toMatchObject({ status: 'accepted' });
  env.sim.inject({ kind: 'recordCode', code: 1100, next: 1 });
  const refused = (
    await api()
      .put(`/api/v1/invoices/${id}`)
      .set(party.account.auth)
      .send(invoice(taxpayer.id, number, 'Uno'))
      .expect(201)
  ).body.data;
  expect(await settledRecord(refused.id)).toMatchObject({ status: 'rejected' });
  const reactivated = (
    await api()
      .put(`/api/v1/invoices/${id}`)
      .set(party.account.auth)
      .send(invoice(taxpayer.id, number, 'Dos'))
      .expect(201)
  ).body.data;
  expect(await settledRecord(reactivated.id)).toMatchObject({ status: 'accepted' });

  const spanish = await signIn(env.api, party.account.email, party.account.password, 'es');
  const page = (await spanish.get(`/app/invoices/${id}`).expect(200)).text;
  const timeline = /<ol class="timeline">([\s\S]*?)<\/ol>/.exec(page)?.[1] ?? '';
  expect(timeline).toContain('enviado a la AEAT (intento 1)');
  expect(timeline).toContain('el envío falló; próximo intento:');
  expect(timeline).toContain('la AEAT tiene este mismo registro (misma huella, confirmado con el servicio de consulta): correcto');
  expect(timeline).toMatch(/aceptado por la AEAT \(CSV [^)]+\)/);
  expect(timeline).toContain('rechazado: 1100');
  expect(page).toContain('10,00 %');
  expect(page).not.toContain('10.00 %');
  expect(visibleText(page).match(ENGLISH) ?? []).toEqual([]);

  const english = await signIn(env.api, party.account.email, party.account.password, 'en');
  const englishPage = (await english.get(`/app/invoices/${id}`).expect(200)).text;
  expect(englishPage).toContain('sent to the authority (attempt 1)');
  expect(englishPage).toContain('10.00 %');
});
