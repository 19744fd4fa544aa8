import Joi from 'joi';
import type { AccountSettings } from '@vf/contract';
import { envelope, id, text, timestamp } from '../shared/answer-schema-parts';

/** The answer of GET /account. */
export const accountResponse = envelope(
  Joi.object({
    id: id.required(),
    name: text.required(),
    email: text.required(),
    plan: text.required(),
    monthly_quota: Joi.number().integer().allow(null).required(),
    usage: Joi.object({
      period: text.required(),
      used: Joi.number().integer().required(),
      remaining: Joi.number().integer().allow(null).required(),
      resets_at: timestamp.required(),
    }).required(),
    api_key_hint: text.required(),
    api_key_created_at: timestamp.required(),
    created_at: timestamp.required(),
    recipient_check: Joi.string()
      .valid('warn', 'refuse')
      .allow(null)
      .required()
      .description('The `recipient_check` of registrations that ask for none (`null`: no check).'),
  }),
);

/** PUT /account/settings: the settings an account changes itself. */
export const accountSettingsSchema = Joi.object<AccountSettings, true>({
  recipient_check: Joi.string()
    .valid('warn', 'refuse')
    .allow(null)
    .required()
    .description(
      'Check the Spanish recipients of every registration that does not say otherwise: `warn`, `refuse` (see `POST /invoices`), or `null` for no check.',
    ),
});
