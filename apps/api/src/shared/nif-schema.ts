import Joi from 'joi';
import { validateSpanishNif } from '@vf/core';

/** A Spanish NIF/NIE/CIF with a correct check character; the value becomes its normalised form. */
export const spanishNif = Joi.string()
  .trim()
  .max(20)
  .custom((value: string, helpers) => {
    const check = validateSpanishNif(value);
    return check.valid ? check.normalized : helpers.error('vf.invalid_nif');
  })
  .messages({ 'vf.invalid_nif': '{#label} is not a valid Spanish NIF, NIE or CIF (wrong format or check character)' });
