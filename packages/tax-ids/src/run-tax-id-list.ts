import type { TaxIdAnswer, TaxIdQuestion } from '@vf/contract';
import { TAX_ID_LIST_COMPLETED_EVENT as TAX_ID_LIST_COMPLETED } from '@vf/core';
import { CENSUS_MAX_ROWS } from '@vf/xml';
import { taxIdListStore, type Db, type TaxIdListAnswer, type TaxIdListQuestion, type TaxIdListRow } from '@vf/db';
import { TaxIdCheckRefusal } from './tax-id-check-refusal';
import type { TaxIdChecker } from './tax-id-checker';

/** VIES is asked one number at a time: its rows are written in parts this size, so the list's progress moves. */
const VIES_PART = 50;

type Row = TaxIdListQuestion & { position: number };

const questionOf = (row: Row): TaxIdQuestion =>
  row.kind === 'vat_number' ? { vatNumber: row.taxId } : { nif: row.taxId, name: row.name ?? '' };

function answerOf(position: number, a: TaxIdAnswer): TaxIdListAnswer {
  const common = { position, result: a.result, detail: a.detail, source: a.source, checkedAt: a.checkedAt };
  if (a.source === 'vies') return { ...common, faultCode: a.faultCode ?? null, requestIdentifier: a.requestIdentifier ?? null };
  return { ...common, censusName: a.censusName ?? null };
}

/** The answers of some rows of a list: `unknown` for all of them when the deployment cannot make the check. */
async function check(checker: TaxIdChecker, list: TaxIdListRow, rows: Row[], now: () => Date): Promise<TaxIdListAnswer[]> {
  try {
    const answers = await checker.check(list.accountId, {
      taxIds: rows.map(questionOf),
      maxAge: list.maxAge,
      taxpayerId: list.taxpayerId ?? undefined,
    });
    return rows.map((row, i) => answerOf(row.position, answers[i]!));
  } catch (error) {
    if (!(error instanceof TaxIdCheckRefusal)) throw error;
    return rows.map((row) => ({
      position: row.position,
      result: 'unknown',
      detail: 'not_processed',
      faultCode: error.code,
      source: row.kind === 'vat_number' ? 'vies' : 'aeat_census',
      checkedAt: now(),
    }));
  }
}

/**
 * Checks a list's rows not answered yet and writes their answers: the Spanish NIFs in census requests of at most
 * 10,000 rows (the checker asks again with backoff what the census did not process), the VAT numbers in parts. Once
 * every row has its answer the list is done and its webhook event goes out. A list met again (a job retried, or put
 * back by the sweep) goes on where it stopped.
 */
export async function runTaxIdList(deps: { db: Db; checker: TaxIdChecker; clock: () => Date }, listId: string): Promise<'done' | 'gone'> {
  const { db } = deps;
  const list = await taxIdListStore.forWork(db, listId);
  if (!list) return 'gone';
  for (;;) {
    const rows = await taxIdListStore.unanswered(db, listId, CENSUS_MAX_ROWS);
    if (rows.length === 0) break;
    const nifs = rows.filter((r) => r.kind === 'nif');
    if (nifs.length > 0) await taxIdListStore.answer(db, listId, await check(deps.checker, list, nifs, deps.clock));
    const vatNumbers = rows.filter((r) => r.kind === 'vat_number');
    for (let at = 0; at < vatNumbers.length; at += VIES_PART) {
      const part = vatNumbers.slice(at, at + VIES_PART);
      await taxIdListStore.answer(db, listId, await check(deps.checker, list, part, deps.clock));
    }
  }
  await taxIdListStore.finish(db, listId, TAX_ID_LIST_COMPLETED, (done) =>
    JSON.stringify({
      type: TAX_ID_LIST_COMPLETED,
      timestamp: (done.finishedAt ?? deps.clock()).toISOString(),
      data: { list_id: done.id, status: done.status, total: done.total, answered: done.answered },
    }),
  );
  return 'done';
}
