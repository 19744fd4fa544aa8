import { EU_MEMBER_STATES, isCountryCode, isEuMemberState } from '../code-lists';
import { validateEuVatNumber, validateSpanishNif } from '../nif';
import { isJsonObject, readAmount, rejectUnknownFields } from '../validation/field-readers';
import { IssueCollector } from '../validation/issue-collector';
import type { ValidationIssue } from '../validation/types';

export const TERRITORIES = ['peninsula', 'canarias', 'ceuta', 'melilla'] as const;
export type Territory = (typeof TERRITORIES)[number];
/** What is sold: the authority treats goods and services to an EU business differently (E5 or N2). */
export const SUPPLY_TYPES = ['goods', 'services'] as const;
export type SupplyType = (typeof SUPPLY_TYPES)[number];

export interface ClassificationRequest {
  territory: Territory;
  country: string;
  /** Normalised, with its country prefix. */
  vat?: string;
  /** The taxable base to compute the suggested line's amounts with, in cents. */
  baseCents?: bigint;
  supplyType?: SupplyType;
}

const isTerritory = (v: unknown): v is Territory => typeof v === 'string' && (TERRITORIES as readonly string[]).includes(v);
const isSupplyType = (v: unknown): v is SupplyType => typeof v === 'string' && (SUPPLY_TYPES as readonly string[]).includes(v);
// EU VAT prefixes are the ISO codes, except Greece's EL.
const EU_VAT_PREFIXES: ReadonlySet<string> = new Set(EU_MEMBER_STATES.map((c) => (c === 'GR' ? 'EL' : c)));

/** Reads and checks the classify body (docs/api.md, `POST /invoices/classify`). */
export function readClassificationRequest(
  body: unknown,
): { ok: true; request: ClassificationRequest } | { ok: false; errors: ValidationIssue[] } {
  const issues = new IssueCollector();
  if (!isJsonObject(body)) {
    issues.error('', 'invalid_body', 'The request body must be a JSON object.');
    return { ok: false, errors: issues.errors };
  }
  rejectUnknownFields(body, ['issuer_territory', 'recipient_country', 'recipient_vat', 'base_amount', 'supply_type'], '', issues);

  const territory = body.issuer_territory ?? 'peninsula';
  if (!isTerritory(territory))
    issues.error('issuer_territory', 'invalid_code', `issuer_territory must be one of ${TERRITORIES.join(', ')}.`);
  const country =
    typeof body.recipient_country === 'string' ? body.recipient_country.trim().toUpperCase() : (body.recipient_country ?? 'ES');
  if (!isCountryCode(country))
    issues.error('recipient_country', 'invalid_country', 'recipient_country must be an ISO 3166-1 alpha-2 country code, such as FR or US.');
  const vat = readVat(body.recipient_vat, isCountryCode(country) ? country : undefined, issues);
  const base = readAmount(body.base_amount, 'base_amount', issues);
  const supplyType = body.supply_type ?? undefined;
  if (supplyType !== undefined && !isSupplyType(supplyType))
    issues.error('supply_type', 'invalid_code', `supply_type must be one of ${SUPPLY_TYPES.join(', ')}.`);

  if (issues.errors.length > 0 || !isTerritory(territory) || !isCountryCode(country) || vat === null)
    return { ok: false, errors: issues.errors };
  const request: ClassificationRequest = { territory, country, ...(vat ? { vat } : {}), ...(base ? { baseCents: base.cents } : {}) };
  return { ok: true, request: isSupplyType(supplyType) ? { ...request, supplyType } : request };
}

function readVat(value: unknown, country: string | undefined, issues: IssueCollector): string | undefined | null {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') {
    issues.error('recipient_vat', 'invalid_type', 'recipient_vat must be a string.');
    return null;
  }
  if (!country) return null;
  const compact = value.toUpperCase().replace(/[\s.-]/g, '');
  const prefix = compact.slice(0, 2);
  if (country === 'ES') {
    if (/^[A-Z]{2}/.test(compact) && prefix !== 'ES') return mismatch(prefix, country, issues);
    const nif = validateSpanishNif(compact);
    if (!nif.valid) return invalid(`${compact} is not a valid Spanish NIF`, issues);
    return `ES${nif.normalized}`;
  }
  if (isEuMemberState(country)) {
    const check = validateEuVatNumber(country, compact);
    if (check.problem === 'prefix') return mismatch(prefix, country, issues);
    if (!check.valid) return invalid(check.reason ?? 'invalid structure', issues);
    return check.normalized;
  }
  // Outside the EU any format goes, but an EU prefix means the number belongs to another country.
  if (EU_VAT_PREFIXES.has(prefix)) return mismatch(prefix, country, issues);
  return compact;
}

function mismatch(prefix: string, country: string, issues: IssueCollector): null {
  issues.error(
    'recipient_vat',
    'vat_country_mismatch',
    `recipient_vat starts with ${prefix} but recipient_country is ${country}; send the country that issued the VAT number.`,
  );
  return null;
}

function invalid(reason: string, issues: IssueCollector): null {
  issues.error('recipient_vat', 'invalid_vat_number', `recipient_vat is not a valid VAT number: ${reason}.`);
  return null;
}
