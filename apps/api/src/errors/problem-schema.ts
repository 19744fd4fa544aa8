import Joi from 'joi';

const text = Joi.string().allow('');

/** One field problem (or warning) of a problem answer, as ApiError writes it. */
export const issue = Joi.object({
  field: text.required(),
  code: text.required(),
  message: text.required(),
  authority_code: Joi.number().integer(),
  explanation: Joi.object({ es: text.required(), en: text.required() }).description(
    'On a warning the authority would register the invoice with (2000-2009): what it means and what to do, in Spanish and English.',
  ),
});

/** RFC 9457 problem details as the error handler writes them. */
export const problem = Joi.object({
  type: Joi.string().required().description('urn:vf:problem:<code>'),
  title: text.required(),
  status: Joi.number().integer().required(),
  detail: text.required(),
  code: Joi.string().required().description('Stable code to branch on; the route lists the ones it can answer.'),
  request_id: text.required(),
  errors: Joi.array().items(issue).description('Field problems of a 422.'),
  warnings: Joi.array().items(issue),
}).unknown(true);
