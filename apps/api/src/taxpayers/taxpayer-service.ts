import type { CertificateWarning } from '@vf/contract';
import type { Db, DbOrTx } from '@vf/db';
import {
  chainStore,
  idempotencyStore,
  StoreError,
  taxpayerStore,
  type TaxpayerCertificateColumns,
  type TaxpayerPatch,
  type TaxpayerView,
} from '@vf/db';
import type { RecordSigner } from '@vf/chain';
import { ApiError } from '../errors/api-error';
import { changeOperatingMode } from '../operating-mode/change-operating-mode';
import type { SealAnswer } from '../idempotency/sealed-answer';
import { pageStart, toPage, type Page, type PageQuery } from '../shared/page-query';
import { NO_CERTIFICATE, type CertificateIntake } from './certificate-intake';
import type { TaxpayerCreateRequest, TaxpayerUpdateRequest } from './taxpayer-schemas';
import { certificateWarnings } from './taxpayer-view';

export interface SavedTaxpayer {
  taxpayer: TaxpayerView;
  warnings: CertificateWarning[];
}

export type TaxpayerService = ReturnType<typeof createTaxpayerService>;

const notFound = () => new ApiError('taxpayer_not_found', 'No taxpayer with this id in your account.');

function conflictOrThrow(err: unknown): never {
  if (err instanceof StoreError && err.kind === 'conflict') {
    throw new ApiError('taxpayer_exists', 'Your account already has a taxpayer with this NIF.', {
      errors: [{ field: 'nif', code: 'taken', message: 'a taxpayer with this NIF already exists in your account' }],
    });
  }
  throw err;
}

// A NIF's chain in one environment belongs to one taxpayer service-wide: a second account sending under the
// same NIF would fork the chain at the authority. Which account is the NIF's holder is for support to settle.
const claimedElsewhere = (nif: string, isProduction: boolean) =>
  new ApiError(
    'taxpayer_claimed',
    `The NIF ${nif} is already registered as a ${isProduction ? 'production' : 'sandbox'} taxpayer by another account. If it is yours, contact support to have it transferred.`,
    {
      errors: [
        { field: 'nif', code: 'claimed', message: 'another account holds this NIF in this environment; if it is yours, contact support' },
      ],
    },
  );

async function claimChain(tx: DbOrTx, taxpayerId: string, nif: string, isProduction: boolean): Promise<void> {
  const claim = await chainStore.claim(tx, taxpayerId, nif, isProduction);
  if (claim.kind === 'taken') throw claimedElsewhere(nif, isProduction);
}

/** Reads and seals the certificate the request carries: undefined = leave as is, NO_CERTIFICATE = remove. */
async function certificateColumns(
  intake: CertificateIntake,
  input: TaxpayerUpdateRequest,
): Promise<TaxpayerCertificateColumns | undefined> {
  const password = input.certificate_password ?? '';
  if (typeof input.certificate_path === 'string') return intake.accept({ kind: 'path', path: input.certificate_path }, password);
  if (typeof input.certificate_p12_base64 === 'string') {
    return intake.accept({ kind: 'upload', p12: Buffer.from(input.certificate_p12_base64, 'base64') }, password);
  }
  if (input.certificate_path === null || input.certificate_p12_base64 === null) return NO_CERTIFICATE;
  return undefined;
}

/** A taxpayer's NIF or environment changed: its empty chain released for a new NIF, the chain of the new pair claimed. */
async function moveChain(
  tx: DbOrTx,
  id: string,
  current: { nif: string; isProduction: boolean },
  next: { nif: string; isProduction: boolean },
): Promise<void> {
  if (next.nif !== current.nif) {
    // The chain's records carry the NIF they were issued under; a new NIF would need a new chain.
    if ((await chainStore.totalRecords(tx, id)) > 0) {
      throw new ApiError('taxpayer_has_invoices', 'The NIF cannot change once invoices were registered; create a new taxpayer instead.');
    }
    await chainStore.releaseEmpty(tx, id);
  }
  // A new environment is a new chain (its first record carries PrimerRegistro=S); the old one stays, readable.
  if (next.nif !== current.nif || next.isProduction !== current.isProduction) await claimChain(tx, id, next.nif, next.isProduction);
}

export function createTaxpayerService(deps: { db: Db; intake: CertificateIntake; clock: () => Date; signer: RecordSigner }) {
  const { db, intake } = deps;

  /** The taxpayer as the write left it, read in the write's transaction; its answer is kept there too. */
  async function saved(tx: DbOrTx, accountId: string, id: string, answer?: SealAnswer<SavedTaxpayer>): Promise<SavedTaxpayer> {
    const taxpayer = await taxpayerStore.find(tx, accountId, id);
    if (!taxpayer) throw notFound();
    const result = { taxpayer, warnings: certificateWarnings(taxpayer, deps.clock()) };
    if (answer) await idempotencyStore.keep(tx, answer(result));
    return result;
  }

  return {
    list: (accountId: string) => taxpayerStore.list(db, accountId),

    async listPage(accountId: string, query: PageQuery): Promise<Page<TaxpayerView>> {
      return toPage(await taxpayerStore.listPage(db, accountId, pageStart(query), query.limit + 1), query.limit);
    },

    async get(accountId: string, id: string): Promise<TaxpayerView> {
      const taxpayer = await taxpayerStore.find(db, accountId, id);
      if (!taxpayer) throw notFound();
      return taxpayer;
    },

    /** `answer`: with an Idempotency-Key, the answer stored in the write's transaction (also for update). */
    async create(accountId: string, input: TaxpayerCreateRequest, answer?: SealAnswer<SavedTaxpayer>): Promise<SavedTaxpayer> {
      const certificate = await certificateColumns(intake, input);
      return db.transaction(async (tx) => {
        const created = await taxpayerStore
          .insert(tx, { accountId, nif: input.nif, name: input.name, isProduction: input.is_production, ...certificate })
          .catch(conflictOrThrow);
        await claimChain(tx, created, input.nif, input.is_production);
        if (input.operating_mode) await changeOperatingMode(tx, created, input.operating_mode, { signer: deps.signer, now: deps.clock() });
        return saved(tx, accountId, created, answer);
      });
    },

    async update(accountId: string, id: string, input: TaxpayerUpdateRequest, answer?: SealAnswer<SavedTaxpayer>): Promise<SavedTaxpayer> {
      // Certificate first: reading it is file work that must not hold the row lock.
      const certificate = await certificateColumns(intake, input);
      const patch: TaxpayerPatch = { ...certificate };
      if (input.nif !== undefined) patch.nif = input.nif;
      if (input.name !== undefined) patch.name = input.name;
      if (input.is_production !== undefined) patch.isProduction = input.is_production;
      return db.transaction(async (tx) => {
        const current = await taxpayerStore.lockForUpdate(tx, accountId, id);
        if (!current) throw notFound();
        await moveChain(tx, id, current, { nif: patch.nif ?? current.nif, isProduction: patch.isProduction ?? current.isProduction });
        await taxpayerStore.update(tx, accountId, id, patch).catch(conflictOrThrow);
        // After the certificate and environment changed: the mode is the new environment's, signed with the new certificate.
        if (input.operating_mode) await changeOperatingMode(tx, id, input.operating_mode, { signer: deps.signer, now: deps.clock() });
        return saved(tx, accountId, id, answer);
      });
    },

    async remove(accountId: string, id: string): Promise<void> {
      let deleted: boolean;
      try {
        deleted = await taxpayerStore.delete(db, accountId, id);
      } catch (err) {
        if (err instanceof StoreError && err.kind === 'referenced') {
          throw new ApiError('taxpayer_has_invoices', 'A taxpayer with registered invoices cannot be deleted: its records must be kept.');
        }
        throw err;
      }
      if (!deleted) throw notFound();
    },
  };
}
