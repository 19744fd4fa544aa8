import { Router, type Request } from 'express';
import type { TaxIdListItem, TaxIdListRow } from '@vf/db';
import { currentAccount } from '../auth/require-api-key';
import { methodNotAllowed } from '../http/method-not-allowed';
import { parseWith } from '../http/parse-with';
import { isUuid } from '../http/is-uuid';
import { ApiError } from '../errors/api-error';
import { sealedAnswerFor, sendAnswer, type JsonAnswer } from '../idempotency/sealed-answer';
import type { RouteDoc } from '../openapi/route-doc';
import { readTaxIdCsv } from './read-tax-id-csv';
import { MAX_LIST_TAX_IDS, taxIdListPage, taxIdListPageQuery, taxIdListResponse, taxIdListSchema } from './tax-id-list-schemas';
import type { TaxIdListService } from './tax-id-list-service';

export const TAX_ID_LISTS_PATH = '/tax-ids/lists';

function renderList(list: TaxIdListRow) {
  return {
    id: list.id,
    status: list.status,
    total: list.total,
    answered: list.answered,
    max_age: list.maxAge,
    taxpayer_id: list.taxpayerId,
    created_at: list.createdAt.toISOString(),
    finished_at: list.finishedAt?.toISOString() ?? null,
  };
}

function renderItem(item: TaxIdListItem) {
  return {
    line: item.position,
    ...(item.kind === 'vat_number' ? { vat_number: item.taxId } : { nif: item.taxId }),
    ...(item.result !== null && { result: item.result, detail: item.detail, source: item.source }),
    ...(item.censusName !== null && { census_name: item.censusName }),
    ...(item.faultCode !== null && { fault_code: item.faultCode }),
    ...(item.requestIdentifier !== null && { request_identifier: item.requestIdentifier }),
    ...(item.checkedAt !== null && { checked_at: item.checkedAt.toISOString() }),
  };
}

const createdAnswer = (list: TaxIdListRow): JsonAnswer => ({
  status: 202,
  location: `/api/v1${TAX_ID_LISTS_PATH}/${list.id}`,
  body: { data: renderList(list) },
});

function listId(req: Request): string {
  const id = req.params.id as string;
  if (!isUuid(id)) throw new ApiError('not_found', 'No list of tax IDs with this id in your account.');
  return id;
}

export function taxIdListRoutes(lists: TaxIdListService): Router {
  const router = Router();
  router
    .route(TAX_ID_LISTS_PATH)
    .post(async (req, res) => {
      const input = parseWith(taxIdListSchema, typeof req.body === 'string' ? readTaxIdCsv(req.body) : req.body);
      sendAnswer(res, createdAnswer, await lists.create(currentAccount(res).id, input, sealedAnswerFor(res, createdAnswer)));
    })
    .all(methodNotAllowed(['POST']));
  router
    .route(`${TAX_ID_LISTS_PATH}/:id`)
    .get(async (req, res) => {
      res.json({ data: renderList(await lists.get(currentAccount(res).id, listId(req))) });
    })
    .all(methodNotAllowed(['GET']));
  router
    .route(`${TAX_ID_LISTS_PATH}/:id/results`)
    .get(async (req, res) => {
      const query = parseWith(taxIdListPageQuery, req.query);
      const page = await lists.page(currentAccount(res).id, listId(req), Number(query.cursor ?? 0), query.limit);
      res.json({ data: page.items.map(renderItem), next_cursor: page.next });
    })
    .all(methodNotAllowed(['GET']));
  router
    .route(`${TAX_ID_LISTS_PATH}/:id/results.csv`)
    .get(async (req, res) => {
      const id = listId(req);
      await lists.writeCsv(currentAccount(res).id, id, res, () => res.type('text/csv; charset=utf-8').attachment(`tax-ids-${id}.csv`));
    })
    .all(methodNotAllowed(['GET']));
  return router;
}

const COLUMNS = 'line, tax_id, result, detail, census_name, fault_code, request_identifier, source, checked_at';

export const taxIdListRouteDocs: RouteDoc[] = [
  {
    method: 'post',
    path: TAX_ID_LISTS_PATH,
    operationId: 'createTaxIdList',
    tag: 'Tax IDs',
    summary: 'Check a list of up to 10,000 tax IDs, answered asynchronously',
    description:
      `Up to ${MAX_LIST_TAX_IDS} tax IDs, as \`POST /tax-ids/check\` takes them (\`tax_ids\`: \`{nif, name}\` or \`{vat_number}\`), ` +
      'or as a CSV file (`Content-Type: text/csv`; a header naming `tax_id` and `name`, `,` or `;` separated; a tax ID ' +
      'of two leading letters is a VAT number). Answered at once with `202` and the list to poll; the workers check it ' +
      '(the census in requests of at most 10,000 rows, asked again with backoff when it fails), and a ' +
      '`tax_id_list.completed` webhook event goes out when every tax ID has its answer. Each check is kept as evidence.',
    body: taxIdListSchema,
    responses: {
      202: { description: 'The list, pending.', json: taxIdListResponse, headers: { Location: 'The list’s URL.' } },
    },
    problems: ['validation_failed', 'taxpayer_not_found', 'tax_id_checks_exceeded'],
  },
  {
    method: 'get',
    path: `${TAX_ID_LISTS_PATH}/:id`,
    operationId: 'getTaxIdList',
    tag: 'Tax IDs',
    summary: 'A list of tax IDs: its progress',
    description: '`answered` of `total` so far; `done` once every tax ID has its answer.',
    responses: { 200: { description: 'The list.', json: taxIdListResponse } },
    problems: ['not_found'],
  },
  {
    method: 'get',
    path: `${TAX_ID_LISTS_PATH}/:id/results`,
    operationId: 'listTaxIdListResults',
    tag: 'Tax IDs',
    summary: 'A list’s answers, a page at a time, in the list’s order',
    description: 'Each tax ID with its line; `result`, `detail`, `source` and `checked_at` once it has its answer.',
    query: taxIdListPageQuery,
    responses: { 200: { description: 'A page of the list.', json: taxIdListPage } },
    problems: ['not_found', 'validation_failed'],
  },
  {
    method: 'get',
    path: `${TAX_ID_LISTS_PATH}/:id/results.csv`,
    operationId: 'exportTaxIdListResults',
    tag: 'Tax IDs',
    summary: 'A list’s answers as CSV',
    description: `UTF-8 with BOM, \`;\` separated, CRLF lines, one row per tax ID in the list's order. Columns: ${COLUMNS}.`,
    responses: {
      200: {
        description: 'The CSV file, as an attachment.',
        media: { 'text/csv': { schema: { type: 'string' } } },
        headers: { 'Content-Disposition': 'attachment; filename="tax-ids-<id>.csv"' },
      },
    },
    problems: ['not_found'],
  },
];
