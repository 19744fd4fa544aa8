import Joi from 'joi';
import { envelope, id, nullableTimestamp, pageOf, text, timestamp } from '../shared/answer-schema-parts';
import { spanishNif } from '../shared/nif-schema';
import { euVatNumber } from '../shared/vat-number-schema';
import { maxAge, taxIdName, taxIdAnswer } from './tax-id-check-schemas';

/** The most tax IDs in one list (the census's own limit for one request). */
export const MAX_LIST_TAX_IDS = 10_000;

export interface TaxIdListRequest {
  tax_ids: ({ nif: string; name: string } | { vat_number: string })[];
  max_age: number;
  taxpayer_id?: string;
}

export const taxIdListSchema = Joi.object<TaxIdListRequest, true>({
  tax_ids: Joi.array()
    .items(
      Joi.alternatives().try(
        Joi.object({ nif: spanishNif.required(), name: taxIdName.required() }),
        Joi.object({ vat_number: euVatNumber.required() }),
      ),
    )
    .min(1)
    .max(MAX_LIST_TAX_IDS)
    .required(),
  max_age: maxAge,
  taxpayer_id: Joi.string()
    .guid()
    .description(
      "A taxpayer of your account: census checks go out under its certificate (the platform's otherwise), VIES checks under its VAT number.",
    ),
});

export const taxIdListPageQuery = Joi.object<{ cursor?: string; limit: number }, true>({
  cursor: Joi.string()
    .pattern(/^\d{1,5}$/)
    .description('`next_cursor` of the previous page.'),
  limit: Joi.number().integer().min(1).max(1000).default(500),
});

export const taxIdListView = Joi.object({
  id: id.required(),
  status: Joi.string().valid('pending', 'done').required().description('`done` once every tax ID has its answer.'),
  total: Joi.number().integer().required(),
  answered: Joi.number().integer().required().description('How many tax IDs have their answer so far.'),
  max_age: Joi.number().integer().required(),
  taxpayer_id: id.allow(null).required(),
  created_at: timestamp.required(),
  finished_at: nullableTimestamp.required(),
});

export const taxIdListResponse = envelope(taxIdListView);

/** A row of a list: its line (1 for the first tax ID), and the answer once it has one. */
export const taxIdListItem = taxIdAnswer
  .keys({
    line: Joi.number().integer().required().description('Its place in the list, from 1 (a CSV upload: the line after the header).'),
    result: Joi.string().valid('valid', 'invalid', 'unknown').description('Absent until the tax ID has its answer.'),
    detail: text,
    source: text,
    checked_at: timestamp,
  })
  .unknown(false);

export const taxIdListPage = pageOf(taxIdListItem);

/** The columns of a CSV upload: `tax_id` (a NIF, or a VAT number with its country code) and `name` (for NIFs). */
export const CSV_UPLOAD_COLUMNS = ['tax_id', 'name'] as const;
