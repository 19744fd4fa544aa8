import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readPkcs12 } from '@vf/certificates';
import { TEST_CERT_FILES } from '@vf/certificates/testing';
// Loaded for its writers: the store keeps a signed record as its signature's parts only where they can rebuild it.
import '@vf/chain';
import { createDatabase, signedRecordStore } from '@vf/db';
import { signingIdentity, signRecord } from '@vf/signing';
import type { ScaleVerification } from '../report/result-types';
import type { Stack } from '../stack/stack';
import { createTenant } from '../workloads/tenant';
import { fillChain } from './fill-chain';
import { measureVerification } from './measure-verification';
import { recordXml, registerTemplate } from './scale-http';

const SIGNED_NIF = 901;
/** Records signed and kept a statement. */
const KEEP_CHUNK = 500;
/** Record XMLs read from the API at once. */
const READERS = 4;

/**
 * The verification of a chain whose sent records carry real signatures: a second taxpayer's chain filled to
 * `records` (bench/scale/fill-chain.ts), each record that is not still queued signed as the workers sign it (its XML
 * as the API serves it, the platform's certificate: the taxpayers are in social-collaborator mode, the workers'
 * signature id) and kept through the signed-record store in the form the workers' records take, then walked by `GET /chain/{nif}/verification`, which verifies every signature.
 */
export async function measureSignedVerification(stack: Stack, certDir: string, records: number): Promise<ScaleVerification> {
  const { apiKey, taxpayerIds, systemId } = await createTenant(stack.apiUrl, 'scale-signed', 1, SIGNED_NIF);
  const template = await registerTemplate(stack, apiKey, taxpayerIds[0], systemId);
  await fillChain(stack.pool, template.chainId, records, (line) => process.stdout.write(`\r  signed chain: ${line}`));
  const passwords = JSON.parse(readFileSync(path.join(certDir, TEST_CERT_FILES.passwords), 'utf8')) as Record<string, string>;
  const identity = signingIdentity(
    readPkcs12(readFileSync(path.join(certDir, TEST_CERT_FILES.platform)), passwords[TEST_CERT_FILES.platform]),
  );
  const { rows } = await stack.pool.query<{ id: string }>(
    "SELECT id FROM invoices WHERE chain_id = $1 AND authority_status <> 'queued' ORDER BY chain_seq",
    [template.chainId],
  );
  const database = createDatabase(stack.env.DATABASE_URL!, { max: 1 });
  const at = new Date();
  try {
    for (let start = 0; start < rows.length; start += KEEP_CHUNK) {
      const ids = rows.slice(start, start + KEEP_CHUNK).map((r) => r.id);
      const signed: { invoiceId: string; xml: string }[] = [];
      await Promise.all(
        Array.from({ length: READERS }, async (_, reader) => {
          for (let i = reader; i < ids.length; i += READERS)
            signed[i] = {
              invoiceId: ids[i],
              // The id the workers give a signature, which the store's parts form leaves unstored.
              xml: signRecord(await recordXml(stack, apiKey, ids[i]), identity, { at, id: `xmldsig-${ids[i]}` }),
            };
        }),
      );
      await signedRecordStore.keep(database.db, signed);
      process.stdout.write(`\r  signed chain: ${start + ids.length} of ${rows.length} records signed`);
    }
  } finally {
    await database.close();
  }
  console.log('');
  await stack.pool.query('VACUUM (ANALYZE) signed_records');
  const nif = (await stack.pool.query<{ nif: string }>('SELECT nif FROM chains WHERE id = $1', [template.chainId])).rows[0].nif;
  // The first walk also starts the API's signature threads (a few tenths of a second, once a process): measured apart,
  // as each list's first request is, so that the rate is the chain's.
  const cold = await measureVerification(stack, apiKey, nif);
  return { ...(await measureVerification(stack, apiKey, nif)), coldMs: cold.ms };
}
