import type { TaxType } from '../registration-record';

/** L1 Impuesto; an absent Impuesto means 01. */
export const TAX_TYPES: Readonly<Record<TaxType, string>> = {
  '01': 'IVA (value added tax)',
  '02': 'IPSI (Ceuta and Melilla)',
  '03': 'IGIC (Canary Islands)',
  '05': 'Other',
};

export const DEFAULT_TAX_TYPE: TaxType = '01';

export function isTaxType(value: unknown): value is TaxType {
  return typeof value === 'string' && Object.hasOwn(TAX_TYPES, value);
}
