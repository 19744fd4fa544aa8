import { sql } from 'drizzle-orm';
import { WorkerTestEnv } from '../support/worker-test-env';

// A 3000 (duplicate) is settled by asking the Consulta service what the authority holds under our number. The
// "it is ours" path (a reply lost after the authority registered the record) is covered by transport-failures.
let env: WorkerTestEnv;

beforeAll(async () => {
  env = await WorkerTestEnv.create();
});
afterAll(async () => {
  await env?.close();
});

test('a number the taxpayer already used on the authority web form: the record is rejected 3000 (number_taken) after one Consulta, its neighbours are accepted', async () => {
  const party = await env.party();
  const taxpayer = await env.taxpayer(party, { certificate: 'own' });
  const ids = await env.register(party, taxpayer.id, 3);
  const taken = await env.db.db.execute<{ invoice_number: string; invoice_date: string }>(
    sql`SELECT invoice_number, to_char(invoice_date, 'DD-MM-YYYY') AS invoice_date FROM invoices WHERE id = ${ids[1]}`,
  );
  const { invoice_number: invoiceNumber, invoice_date: invoiceDate } = taken.rows[0];
  env.sim.registerViaForm('sandbox', { issuerNif: taxpayer.nif, invoiceNumber, invoiceDate });

  await env.startWorker();
  const states = await env.reach(ids, ['accepted', 'rejected']);

  expect(states.map((s) => s.status)).toEqual(['accepted', 'rejected', 'accepted']);
  expect(states[1]).toMatchObject({ code: 3000 });
  expect(states[1].message).toMatch(
    new RegExp(`already holds another record with number ${invoiceNumber} of ${invoiceDate} \\(huella [0-9A-F]{64}\\)`),
  );
  const cause = await env.db.db.execute<{ cause: string }>(sql`SELECT error_cause AS cause FROM invoices WHERE id = ${ids[1]}`);
  expect(cause.rows[0].cause).toBe('number_taken');
  expect(env.sim.state.counters.consultaRequests).toBe(1);
});
