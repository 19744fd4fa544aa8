import Joi from 'joi';
import { envelope } from '../shared/answer-schema-parts';

// The answers of the verification endpoints, described for the OpenAPI document (the contract test holds real
// answers against them).
const text = Joi.string().allow('');

export const signatureCheck = Joi.object({
  status: Joi.string()
    .valid('valid', 'invalid', 'missing')
    .required()
    .description('`missing`: the record was sent unsigned (SIGN_RECORDS=false). `invalid`: see problems.'),
  problems: Joi.array().items(text).required(),
  signing_time: text.allow(null).required(),
  signer: Joi.object({
    subject: text.required(),
    issuer: text.required(),
    serial_number: text.required(),
    not_before: Joi.string().isoDate().required(),
    not_after: Joi.string().isoDate().required(),
  })
    .allow(null)
    .required()
    .description('The certificate in the signature (KeyInfo).'),
});

export const recordVerificationResponse = envelope(
  Joi.object({
    record_id: Joi.string().guid().required(),
    chain_seq: Joi.number().integer().min(1).required(),
    valid: Joi.boolean().required().description('The huella recomputes, the link holds and the signature is not invalid.'),
    hash: Joi.object({ valid: Joi.boolean().required(), stored: text.required(), recomputed: text.required() }).required(),
    link: Joi.object({ valid: Joi.boolean().required(), problem: text.allow(null).required() }).required(),
    signature: signatureCheck.required(),
  }),
);

const problemAt = Joi.object({
  position: Joi.number().integer().min(0).required(),
  record_id: Joi.string().guid().allow(null).required(),
  invoice_number: text.required(),
  problem: text.required(),
});

export const chainVerificationResponse = envelope(
  Joi.object({
    valid: Joi.boolean().required().description('Every huella recomputes, every link holds and no signature is invalid.'),
    from: Joi.number().integer().min(1).required(),
    verified: Joi.number().integer().min(0).required().description('Records from `from` whose huella and link hold, up to a break.'),
    broken_link: problemAt
      .allow(null)
      .required()
      .description('The first record whose huella or link does not hold; the walk stopped there.'),
    signatures: Joi.object({
      valid: Joi.number().integer().min(0).required(),
      invalid: Joi.number().integer().min(0).required(),
      missing: Joi.number().integer().min(0).required().description('Records sent unsigned (SIGN_RECORDS=false): no fault.'),
    }).required(),
    invalid_signatures: Joi.array().items(problemAt).required().description('The first 20 records whose signature is invalid, with why.'),
  }),
);
