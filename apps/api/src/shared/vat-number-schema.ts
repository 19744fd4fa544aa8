import Joi from 'joi';
import { readViesVatNumber } from '@vf/authority-client';

/** An EU VAT number with its VIES country code; the value becomes `EL094259216` (GR read as EL), without spaces. */
export const euVatNumber = Joi.string()
  .trim()
  .max(20)
  .custom((value: string, helpers) => {
    const read = readViesVatNumber(value);
    return 'refused' in read ? helpers.error('vf.invalid_vat_number', { why: read.refused }) : `${read.countryCode}${read.vatNumber}`;
  })
  .messages({ 'vf.invalid_vat_number': '{#label} is not an EU VAT number VIES can check: {#why}' })
  .description('An EU VAT number with its country code (Greece EL, Northern Ireland XI), checked with VIES.');
