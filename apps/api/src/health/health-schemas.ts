import Joi from 'joi';

/** The answer of GET /health. */
const checkResult = Joi.string().valid('ok', 'unavailable');
export const healthResponse = Joi.object({
  status: Joi.string().valid('ok', 'unavailable').required(),
  checks: Joi.object({ database: checkResult.required(), redis: checkResult.required() }).required(),
});
