import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { loadSenderTaxpayer } from '@vf/db/src/stores/sender-taxpayer-store';
import type { RegistrationRecord } from '@vf/core';
import { parseRegFactuRequest } from '@vf/xml';
import { ClientCertificates } from '../transport/client-certificates';
import { SoapTransport } from '../transport/soap-transport';
import { WorkerTestEnv } from '../testing/worker-test-env';
import { askAuthority } from './ask-authority';
import type { PreparedMessage } from './prepare-message';

let env: WorkerTestEnv;

beforeAll(async () => {
  env = await WorkerTestEnv.create();
});
afterAll(async () => {
  await env?.close();
});

test('the Consulta service settles a 3000: ours (same huella) is accepted, another record under our number rejects ours, unknown ones stay open', async () => {
  const party = await env.party();
  const taxpayer = await env.taxpayer(party, { certificate: 'own' });
  const [id] = await env.register(party, taxpayer.id, 1);
  const worker = await env.startWorker();
  await env.settled([id]);
  await worker.close();

  const submission = await env.db.db.execute<{ request_xml: string; chain_id: string }>(
    sql`SELECT request_xml, chain_id FROM submissions WHERE taxpayer_id = ${taxpayer.id}`,
  );
  const record = parseRegFactuRequest(submission.rows[0].request_xml).records[0] as RegistrationRecord;
  const certificates = new ClientCertificates({ masterKey: env.config.masterKey, serverCaPem: readFileSync(env.config.authority.simulatorCaPath!, 'utf8') });
  const message = {
    endpoint: env.config.authority.simulatorUrl,
    certificate: certificates.forTaxpayer((await loadSenderTaxpayer(env.db.db, submission.rows[0].chain_id))!),
  } as PreparedMessage;
  const unknown = { ...record, id: { ...record.id, invoiceNumber: 'NEVER-SENT' } };
  const impostor = { ...record, hash: 'F'.repeat(64) };
  try {
    const settled = await askAuthority(new SoapTransport({ timeoutMs: 10_000 }), message, { name: record.issuerName, nif: record.id.issuerNif }, [
      { invoiceId: id, record, attempt: 2 },
      { invoiceId: 'other', record: unknown, attempt: 2 },
      { invoiceId: 'impostor', record: impostor, attempt: 1 },
    ]);
    expect(settled.get(id)).toMatchObject({ invoiceId: id, status: 'accepted' });
    expect(settled.get(id)?.note).toContain('same huella, confirmed by the Consulta service');
    expect(settled.has('other')).toBe(false);
    expect(settled.get('impostor')).toMatchObject({ status: 'rejected', code: 3000, cause: 'number_taken' });
    expect(settled.get('impostor')?.message).toMatch(/already holds another record with number .* \(huella [0-9A-F]{64}\)/);
    expect(env.sim.state.counters.consultaRequests).toBe(3);
  } finally {
    certificates.close();
  }
});
