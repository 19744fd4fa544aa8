import type { Writable } from 'node:stream';
import { senderTaxpayerStore, taxIdListStore, type Db, type TaxIdListItem, type TaxIdListRow } from '@vf/db';
import { taxIdListJobId, type Queues } from '@vf/queue';
import { ApiError } from '../errors/api-error';
import type { SealAnswer } from '../idempotency/sealed-answer';
import { writeCsv } from '../csv/write-csv';
import type { TaxIdCheckService } from './tax-id-check-service';
import type { TaxIdListRequest } from './tax-id-list-schemas';

const CSV_PAGE = 2_000;

function notFound(): ApiError {
  return new ApiError('not_found', 'No list of tax IDs with this id in your account.');
}

/** The columns of a list's results as CSV. */
const RESULT_COLUMNS: { header: string; value: (row: TaxIdListItem) => string | number | null }[] = [
  { header: 'line', value: (r) => r.position },
  { header: 'tax_id', value: (r) => r.taxId },
  { header: 'result', value: (r) => r.result },
  { header: 'detail', value: (r) => r.detail },
  { header: 'census_name', value: (r) => r.censusName },
  { header: 'fault_code', value: (r) => r.faultCode },
  { header: 'request_identifier', value: (r) => r.requestIdentifier },
  { header: 'source', value: (r) => r.source },
  { header: 'checked_at', value: (r) => r.checkedAt?.toISOString() ?? null },
];

/**
 * Lists of up to 10,000 tax IDs, checked by the workers: kept whole in PostgreSQL, then their job is added (a job
 * Redis did not take is added by the workers' sweep), read back page by page or as CSV.
 */
export function createTaxIdListService(deps: {
  db: Db;
  queues: Pick<Queues, 'taxIdLists'>;
  enqueueTimeoutMs: number;
  checks: Pick<TaxIdCheckService, 'assertAllowance'>;
}) {
  const { db } = deps;

  async function own(accountId: string, id: string): Promise<TaxIdListRow> {
    const list = await taxIdListStore.find(db, accountId, id);
    if (!list) throw notFound();
    return list;
  }

  async function enqueue(listId: string): Promise<void> {
    const added = deps.queues.taxIdLists.add('check', { listId }, { jobId: taxIdListJobId(listId) });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, deps.enqueueTimeoutMs)));
    // The list is in PostgreSQL: a job Redis did not take in time is added by the workers' sweep.
    await Promise.race([
      added.then(
        () => undefined,
        () => undefined,
      ),
      late,
    ]).finally(() => clearTimeout(timer));
  }

  return {
    /** `answer`: with an Idempotency-Key, the answer kept in the transaction that writes the list. */
    async create(accountId: string, input: TaxIdListRequest, answer?: SealAnswer<TaxIdListRow>): Promise<TaxIdListRow> {
      if (input.taxpayer_id && !(await senderTaxpayerStore.ofAccount(db, accountId, input.taxpayer_id))) {
        throw new ApiError('taxpayer_not_found', 'No taxpayer with this id in your account.');
      }
      // The whole list counts against the month's allowance when it is taken: a list is never left half checked.
      await deps.checks.assertAllowance(accountId, input.tax_ids.length);
      const list = await taxIdListStore.create(
        db,
        {
          accountId,
          taxpayerId: input.taxpayer_id,
          maxAge: input.max_age,
          questions: input.tax_ids.map((q) =>
            'vat_number' in q ? { taxId: q.vat_number, kind: 'vat_number' as const } : { taxId: q.nif, kind: 'nif' as const, name: q.name },
          ),
        },
        answer,
      );
      await enqueue(list.id);
      return list;
    },

    get: own,

    async page(accountId: string, id: string, after: number, limit: number): Promise<{ items: TaxIdListItem[]; next: string | null }> {
      await own(accountId, id);
      const items = await taxIdListStore.page(db, id, after, limit + 1);
      const more = items.length > limit;
      const shown = more ? items.slice(0, limit) : items;
      return { items: shown, next: more ? String(shown[shown.length - 1]!.position) : null };
    },

    async writeCsv(accountId: string, id: string, out: Writable, begin: () => void): Promise<void> {
      await own(accountId, id);
      async function* batches() {
        for (let after = 0; ;) {
          const rows = await taxIdListStore.page(db, id, after, CSV_PAGE);
          if (rows.length > 0) yield rows;
          if (rows.length < CSV_PAGE) return;
          after = rows[rows.length - 1]!.position;
        }
      }
      await writeCsv(RESULT_COLUMNS, batches(), out, begin);
    },
  };
}

export type TaxIdListService = ReturnType<typeof createTaxIdListService>;
