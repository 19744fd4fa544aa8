import { isCountryCode, isIdType, type IdType } from '../code-lists';
import { validateEuVatNumber, validateSpanishNif } from '../nif';
import { isJsonObject, readCode, readText, rejectUnknownFields, required, type Read } from './field-readers';
import type { IssueCollector } from './issue-collector';

export type ParsedRecipient =
  { kind: 'nif'; name: string; nif: string } | { kind: 'other'; name: string; country: string; idType: IdType; id: string };

const FIELDS = ['name', 'nif', 'country', 'id_type', 'id'];

/**
 * The recipient: a Spanish NIF, or a foreign identification (IDOtro) with country, id_type and id.
 * Checks everything that depends on the recipient alone; rules tied to the invoice type or the
 * regime are in the invoice-type and line rules.
 */
export function readRecipient(value: unknown, issues: IssueCollector): Read<ParsedRecipient> {
  if (value === undefined || value === null) return undefined;
  if (!isJsonObject(value)) {
    issues.error('recipient', 'invalid_type', 'recipient must be an object with name and nif, or name, country, id_type and id.');
    return null;
  }
  rejectUnknownFields(value, FIELDS, 'recipient', issues);
  const name = required(readText(value.name, 'recipient.name', 120, issues), 'recipient.name', issues);
  const foreignGiven = ['country', 'id_type', 'id'].some((key) => value[key] !== undefined && value[key] !== null);

  if (value.nif !== undefined && value.nif !== null) {
    if (foreignGiven) {
      issues.error(
        'recipient',
        'ambiguous_recipient',
        'Give either recipient.nif (Spanish NIF) or recipient.country, id_type and id, not both.',
      );
      return null;
    }
    const nif = readSpanishNif(value.nif, issues);
    return name && nif ? { kind: 'nif', name, nif } : null;
  }
  if (!foreignGiven) {
    issues.error('recipient', 'required', 'recipient needs either nif (Spanish NIF) or country, id_type and id.');
    return null;
  }
  const country = required(readCountry(value.country, issues), 'recipient.country', issues, 1111);
  const idType = required(
    readCode(value.id_type, 'recipient.id_type', isIdType, '02, 03, 04, 05, 06, 07', issues, 1102),
    'recipient.id_type',
    issues,
  );
  const rawId = required(readText(value.id, 'recipient.id', 20, issues), 'recipient.id', issues);
  if (!name || !country || !idType || !rawId) return null;
  const id = checkForeignId(country, idType, rawId, issues);
  return id ? { kind: 'other', name, country, idType, id } : null;
}

function readSpanishNif(value: unknown, issues: IssueCollector): Read<string> {
  if (typeof value !== 'string') {
    issues.error('recipient.nif', 'invalid_type', 'recipient.nif must be a string.');
    return null;
  }
  const check = validateSpanishNif(value);
  if (!check.valid) {
    issues.error(
      'recipient.nif',
      'invalid_nif',
      `recipient.nif "${check.normalized}" is not a valid Spanish NIF (wrong format or check character).`,
      1123,
    );
    return null;
  }
  return check.normalized;
}

function readCountry(value: unknown, issues: IssueCollector): Read<string> {
  if (value === undefined || value === null) return undefined;
  const code = typeof value === 'string' ? value.trim().toUpperCase() : value;
  if (!isCountryCode(code)) {
    issues.error(
      'recipient.country',
      'invalid_country',
      'recipient.country must be an ISO 3166-1 alpha-2 country code, such as FR or US.',
      1101,
    );
    return null;
  }
  return code;
}

function checkForeignId(country: string, idType: IdType, id: string, issues: IssueCollector): string | null {
  // Spain appears in IDOtro only for a passport (03) or a NIF missing from the census (07), and 07 only with ES (1126).
  if (country === 'ES' && idType !== '03' && idType !== '07') {
    issues.error(
      'recipient.id_type',
      'invalid_id_type_for_spain',
      'A Spanish recipient goes in recipient.nif; with country ES, id_type can only be 03 (passport) or 07 (not in the census).',
      1126,
    );
    return null;
  }
  if (idType === '07' && country !== 'ES') {
    issues.error('recipient.country', 'invalid_country_for_id_type', 'id_type 07 (not in the census) requires country ES.', 1126);
    return null;
  }
  if (idType === '07') {
    const check = validateSpanishNif(id);
    if (!check.valid || check.kind === 'entity') {
      issues.error(
        'recipient.id',
        'invalid_uncensused_nif',
        'With id_type 07, recipient.id must be the valid NIF of a natural person (DNI, NIE or K/L/M).',
        1131,
      );
      return null;
    }
    return check.normalized;
  }
  if (idType === '02') {
    const check = validateEuVatNumber(country, id);
    if (!check.valid) {
      issues.error(
        'recipient.id',
        'invalid_eu_vat_number',
        `recipient.id is not a valid EU VAT number: ${check.reason}.`,
        check.problem === 'prefix' ? 1122 : undefined,
      );
      return null;
    }
    issues.warning(
      'recipient.id',
      'eu_vat_number_not_verified',
      `${check.normalized} has a valid structure but was not checked against VIES; make sure it is registered before treating the operation as intra-Community.`,
    );
    return check.normalized;
  }
  return id;
}
