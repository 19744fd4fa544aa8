import type { TaxType } from '../registration-record';

/** L8A ClaveRegimen for IVA. */
export const VAT_REGIME_KEYS: Readonly<Record<string, string>> = {
  '01': 'General regime',
  '02': 'Export',
  '03': 'Second-hand goods, art, antiques and collectors’ items (REBU)',
  '04': 'Investment gold',
  '05': 'Travel agencies',
  '06': 'VAT group of entities (advanced level)',
  '07': 'Cash accounting',
  '08': 'Operations subject to IPSI/IGIC',
  '09': 'Travel agencies acting as intermediaries in the name and on behalf of others',
  '10': 'Third-party collections of professional fees or industrial/author rights',
  '11': 'Business premises rental',
  '14': 'VAT pending accrual in work certifications for a public administration',
  '15': 'VAT pending accrual in successive-tract operations',
  '17': 'One-stop shop (OSS / IOSS)',
  '18': 'Equivalence surcharge',
  '19': 'Agriculture, livestock and fishing (REAGYP)',
  '20': 'Simplified regime',
};

/** L8B ClaveRegimen for IGIC, with 20 and 21 added by AEAT's "Validaciones y errores". */
export const IGIC_REGIME_KEYS: Readonly<Record<string, string>> = {
  '01': 'General regime',
  '02': 'Export',
  '03': 'Second-hand goods, art, antiques and collectors’ items',
  '04': 'Investment gold',
  '05': 'Travel agencies',
  '06': 'IGIC group of entities (advanced level)',
  '07': 'Cash accounting',
  '08': 'Operations subject to IPSI/VAT',
  '09': 'Travel agencies acting as intermediaries in the name and on behalf of others',
  '10': 'Third-party collections of professional fees or industrial/author rights',
  '11': 'Business premises rental',
  '14': 'IGIC pending accrual in work certifications for a public administration',
  '15': 'IGIC pending accrual in successive-tract operations',
  '17': 'Retail trader special regime',
  '18': 'Small business or professional special regime',
  '19': 'Domestic operations exempt under art. 25 Law 19/1994',
  '20': 'Operations subject to IPSI',
  '21': 'Simplified regime',
};

/** ClaveRegimen for IPSI (AEAT "Validaciones y errores" v1.2.0 §15.6). */
export const IPSI_REGIME_KEYS: Readonly<Record<string, string>> = {
  '01': 'General regime',
  '08': 'Operations subject to IGIC/VAT',
  '11': 'Business premises rental',
  '18': 'Operations of art. 73.4 and 5 of the IPSI ordinance (Ceuta only)',
  '19': 'Exempt domestic operations',
  '20': 'Objective estimation regime',
};

/** The regime keys a tax accepts; "Other" (05) takes none (1260). */
export function regimeKeysFor(tax: TaxType): Readonly<Record<string, string>> {
  switch (tax) {
    case '01':
      return VAT_REGIME_KEYS;
    case '03':
      return IGIC_REGIME_KEYS;
    case '02':
      return IPSI_REGIME_KEYS;
    case '05':
      return {};
  }
}

/** The codes of regimeKeysFor in numeric order (object keys like "10" would otherwise come before "01"). */
export function regimeKeyCodes(tax: TaxType): string[] {
  return Object.keys(regimeKeysFor(tax)).sort();
}

export function isRegimeKeyFor(tax: TaxType, value: unknown): value is string {
  return typeof value === 'string' && Object.hasOwn(regimeKeysFor(tax), value);
}
