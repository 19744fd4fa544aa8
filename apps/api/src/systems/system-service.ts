import type { Db } from '@vf/db';
import { idempotencyStore, StoreError, systemStore, type SystemPatch, type SystemRow } from '@vf/db';
import type { SealAnswer } from '../idempotency/sealed-answer';
import { ApiError } from '../errors/api-error';
import { pageStart, toPage, type Page, type PageQuery } from '../shared/page-query';
import { defaultSystemCode } from './system-code';
import type { SystemCreateRequest, SystemUpdateRequest } from './system-schemas';

export type SystemService = ReturnType<typeof createSystemService>;

const notFound = () => new ApiError('system_not_found', 'No computer system with this id in your account.');

const usedBySeveral = () =>
  new ApiError(
    'system_single_taxpayer',
    'Records of several taxpayers already name this computer system, so it cannot declare that it supports one taxpayer (supports_multiple_taxpayers: false).',
  );

export function createSystemService(deps: { db: Db }) {
  const { db } = deps;
  return {
    list: (accountId: string) => systemStore.list(db, accountId),

    async listPage(accountId: string, query: PageQuery): Promise<Page<SystemRow>> {
      return toPage(await systemStore.listPage(db, accountId, pageStart(query), query.limit + 1), query.limit);
    },

    async get(accountId: string, id: string): Promise<SystemRow> {
      const system = await systemStore.find(db, accountId, id);
      if (!system) throw notFound();
      return system;
    },

    /** `answer`: with an Idempotency-Key, the answer stored in the insert's transaction. */
    create(accountId: string, input: SystemCreateRequest, answer?: SealAnswer<SystemRow>): Promise<SystemRow> {
      return db.transaction(async (tx) => {
        const system = await systemStore.insert(tx, {
          accountId,
          vendorName: input.vendor_name,
          vendorNif: input.vendor_nif,
          name: input.name,
          version: input.version,
          installationNumber: input.installation_number,
          onlySupportsVerifactu: input.only_supports_verifactu,
          systemCode: input.system_code ?? defaultSystemCode(input.name),
          supportsMultipleTaxpayers: input.supports_multiple_taxpayers,
        });
        if (answer) await idempotencyStore.keep(tx, answer(system));
        return system;
      });
    },

    /** Registered invoices keep the snapshot taken when they were generated; changes apply to new ones. */
    async update(accountId: string, id: string, input: SystemUpdateRequest, answer?: SealAnswer<SystemRow>): Promise<SystemRow> {
      const patch: SystemPatch = {
        vendorName: input.vendor_name,
        vendorNif: input.vendor_nif,
        name: input.name,
        version: input.version,
        installationNumber: input.installation_number,
        onlySupportsVerifactu: input.only_supports_verifactu,
        systemCode: input.system_code,
        supportsMultipleTaxpayers: input.supports_multiple_taxpayers,
      };
      const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as SystemPatch;
      return db.transaction(async (tx) => {
        const current = await systemStore.lockWithTaxpayers(tx, accountId, id);
        if (!current) throw notFound();
        if (input.supports_multiple_taxpayers === false) {
          // Declaring one taxpayer: only true of a system whose records are all of one taxpayer, which then holds it.
          if (current.taxpayerIds.length > 1) throw usedBySeveral();
          defined.soleTaxpayerId = current.taxpayerIds[0] ?? null;
        } else if (input.supports_multiple_taxpayers === true) defined.soleTaxpayerId = null;
        const system = await systemStore.update(tx, accountId, id, defined);
        if (!system) throw notFound();
        if (answer) await idempotencyStore.keep(tx, answer(system));
        return system;
      });
    },

    async remove(accountId: string, id: string): Promise<void> {
      let deleted: boolean;
      try {
        deleted = await systemStore.delete(db, accountId, id);
      } catch (err) {
        if (err instanceof StoreError && err.kind === 'referenced') {
          throw new ApiError('system_in_use', 'Registered invoices refer to this computer system, so it cannot be deleted.');
        }
        throw err;
      }
      if (!deleted) throw notFound();
    },
  };
}
