import Joi from 'joi';
import type { Credentials } from '@vf/contract';
import { envelope, text } from '../shared/answer-schema-parts';

// bcrypt reads at most 72 bytes: a longer password would be silently truncated.
const password = Joi.string()
  .min(12)
  .custom((value: string, helpers) => (Buffer.byteLength(value, 'utf8') > 72 ? helpers.error('string.max', { limit: 72 }) : value))
  .messages({ 'string.min': 'password must be at least 12 characters', 'string.max': 'password must be at most 72 bytes' });

const email = Joi.string()
  .trim()
  .lowercase()
  .max(254)
  .email({ tlds: { allow: false } });

export interface RegisterRequest {
  name: string;
  email: string;
  password: string;
}

export const registerSchema = Joi.object<RegisterRequest, true>({
  name: Joi.string().trim().min(1).max(120).required(),
  email: email.required(),
  password: password.required(),
});

/** Checks shape only; the password's length rules apply when it is chosen, not when it is presented. */
export const credentialsSchema = Joi.object<Credentials, true>({
  email: email.required(),
  password: Joi.string().min(1).max(1024).required(),
});

/** The answer of POST /auth/register and /auth/regenerate-key. */
export const apiKeyResponse = envelope(
  Joi.object({
    api_key: Joi.string().required().description('Shown once; send it as `Authorization: Bearer <key>`.'),
    api_key_hint: text.required(),
    name: text.required(),
    email: text.required(),
    plan: text.required(),
    monthly_quota: Joi.number().integer().allow(null).required(),
  }),
);
