import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { createRegistrationAppender, rebuildChainRecord } from '@vf/chain';
import { madridToday, validateInvoiceRequest } from '@vf/core';
import { f1Request } from '@vf/core/testing';
import { accountStore, chainStore, signedRecordStore, submissionBatchStore, systemStore, taxpayerStore, type Db } from '@vf/db';
import { signingIdentity, signRecordAsync } from '@vf/signing';
import { buildRecordXml } from '@vf/xml';

/** A taxpayer whose records are kept signed, as a NO VERI*FACTU system keeps them: in its chain and in signed_records. */
export interface KeptRecords {
  accountId: string;
  taxpayerId: string;
  chainId: string;
  invoiceIds: string[];
}

const PER_APPEND = 1000;
const SIGNING_AT_ONCE = 8;

async function accountWithTaxpayer(db: Db, nif: string) {
  const planId = `remission-${randomUUID()}`;
  await db.execute(sql`INSERT INTO plans (id, name, monthly_quota) VALUES (${planId}, 'Remissions', 1000000)`);
  const suffix = randomUUID();
  const accountId = await accountStore.insert(db, {
    name: 'Gestoría',
    email: `kept-${suffix}@example.com`,
    passwordHash: 'x',
    apiKeyDigest: suffix.replace(/-/g, '').padEnd(64, '0'),
    apiKeyHint: 'vfk_test',
    planId,
  });
  const taxpayerId = await taxpayerStore.insert(db, { accountId, nif, name: `CONTRIBUYENTE ${nif}`, isProduction: false });
  await chainStore.claim(db, taxpayerId, nif, false);
  const system = await systemStore.insert(db, {
    accountId,
    vendorName: 'Proveedor SL',
    vendorNif: 'B85905495',
    name: 'Facturador',
    version: '1.0',
    installationNumber: `REM-${suffix.slice(0, 8)}`,
    systemCode: 'RM',
    onlySupportsVerifactu: false,
  });
  return { account: (await accountStore.findById(db, accountId))!, taxpayerId, systemId: system.id };
}

/**
 * `count` records of one new taxpayer, appended through the chain writer (one chain, in order), each then signed with
 * `signer` and its signed bytes kept in signed_records: what a NO VERI*FACTU system holds for the authority's request.
 */
export async function keptSignedRecords(
  db: Db,
  opts: { nif: string; count: number; signer: { keyPem: string; certPem: string } },
): Promise<KeptRecords> {
  const { account, taxpayerId, systemId } = await accountWithTaxpayer(db, opts.nif);
  const appender = createRegistrationAppender({ db, clock: () => new Date(), afterAppend: async () => undefined });
  const today = madridToday();
  for (let from = 0; from < opts.count; from += PER_APPEND) {
    const items = Array.from({ length: Math.min(PER_APPEND, opts.count - from) }, (_, i) => {
      const body = f1Request({
        taxpayer_id: taxpayerId,
        computer_system_id: systemId,
        invoice_number: `KEPT-${from + i + 1}`,
        invoice_date: today,
      });
      const result = validateInvoiceRequest(body, { today });
      if (!result.valid) throw new Error(JSON.stringify(result.errors));
      return { invoice: result.invoice, warnings: result.warnings };
    });
    const { outcomes } = await appender.append({ account, taxpayerId, items });
    const refused = outcomes.find((o) => !o.ok);
    if (refused) throw new Error(`a kept record was refused: ${JSON.stringify(refused)}`);
  }
  const [{ chainId }] = (await db.execute<{ chainId: string }>(sql`SELECT id AS "chainId" FROM chains WHERE taxpayer_id = ${taxpayerId}`))
    .rows;
  const rows = await submissionBatchStore.load(db, chainId, opts.count);
  const identity = signingIdentity(opts.signer);
  for (let i = 0; i < rows.length; i += SIGNING_AT_ONCE) {
    const slice = rows.slice(i, i + SIGNING_AT_ONCE);
    const signed = await Promise.all(
      slice.map((row) => signRecordAsync(buildRecordXml(rebuildChainRecord(row)), identity, { at: new Date() })),
    );
    await signedRecordStore.keep(
      db,
      slice.map((row, j) => ({ invoiceId: row.id, xml: signed[j] })),
    );
  }
  return { accountId: account.id, taxpayerId, chainId, invoiceIds: rows.map((r) => r.id) };
}
