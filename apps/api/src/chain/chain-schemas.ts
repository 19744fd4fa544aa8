import Joi from 'joi';
import { envelope, environment, nullableText, nullableTimestamp, text } from '../shared/answer-schema-parts';

export interface ChainQuery {
  environment?: 'sandbox' | 'production';
}

export const chainQuerySchema = Joi.object<ChainQuery, true>({
  environment,
});

export interface ChainVerificationQuery extends ChainQuery {
  from?: number;
  to?: number;
}

export const chainVerificationQuerySchema = Joi.object<ChainVerificationQuery, true>({
  environment,
  from: Joi.number().integer().min(1).description('First position to check (default 1).'),
  to: Joi.number().integer().min(Joi.ref('from')).min(1).description('Last position to check (default: the chain’s last record).'),
});

/** The answer of GET /chain/{nif}. */
export const chainResponse = envelope(
  Joi.object({
    nif: text.required(),
    environment: environment.required(),
    current_environment: environment.required(),
    last_hash: nullableText.required(),
    total_records: Joi.number().integer().min(0).required(),
    last_record_at: nullableTimestamp.required(),
  }),
);
