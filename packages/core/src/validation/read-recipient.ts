import { isCountryCode, isIdType, type IdType } from '../code-lists';
import { validateEuVatNumber, validateSpanishNif } from '../nif';
import { isJsonObject, MISSING, present, readCode, rejectUnknownFields, WRONG_VALUE, type Read } from './field-readers';
import {
  REQUEST_FIELDS,
  REQUEST_LISTS,
  REQUEST_MAX_CHARACTERS,
  type ForeignPartyRequest,
  type SpanishPartyRequest,
} from './invoice-request.generated';
import { fieldReaders, shapeOf } from './read-field';
import type { IssueCollector } from './issue-collector';
import type { Fields } from './request-fields';

/** A recipient (IDDestinatario) or third party (Tercero): a Spanish NIF, or a foreign identification (IDOtro). */
export type ParsedRecipient =
  { kind: 'nif'; name: string; nif: string } | { kind: 'other'; name: string; country?: string; idType: IdType; id: string };

/** Which block the identification goes in: the rules differ a little between Destinatarios and Tercero. */
export type PartyRole = 'recipient' | 'third_party';

const FIELDS = [...REQUEST_FIELDS.SpanishPartyRequest, ...REQUEST_FIELDS.ForeignPartyRequest];
const FOREIGN = shapeOf('ForeignPartyRequest');
// The name is read before the identification says which of the two forms the party has: it must fit both.
const MAX_NAME = Math.min(REQUEST_MAX_CHARACTERS.SpanishPartyRequest.name, FOREIGN.maxCharacters.name);
// A party as the rules read it: a foreign identification's fields (the name required in both), a name that fits both.
const SHAPE = { ...FOREIGN, maxCharacters: { ...FOREIGN.maxCharacters, name: MAX_NAME } };
const FIELD = fieldReaders(SHAPE);
// Destinatarios' sizes and numbers are the schema's: a longer list breaks the block's limit (4113).
const RECIPIENTS = REQUEST_LISTS.InvoiceRequest.recipients;

/**
 * `recipient` (one, as the contract has it) or `recipients` (up to 1,000), never both: the invoice's Destinatarios.
 * Undefined when neither is given; rules tied to the invoice type or the regime are in the invoice-type and line rules.
 */
export function readRecipients(single: unknown, list: unknown, issues: IssueCollector): Read<ParsedRecipient[]> {
  const given = (v: unknown) => v !== undefined && v !== null;
  if (given(single) && given(list)) {
    issues.error('recipients', 'ambiguous_recipients', 'Give either recipient (one) or recipients (a list), not both.');
    return null;
  }
  if (given(single)) {
    const one = readParty(single, 'recipient', 'recipient', issues);
    return one ? [one] : one;
  }
  if (!given(list)) return undefined;
  if (!Array.isArray(list) || list.length < RECIPIENTS.min) {
    issues.error('recipients', 'invalid_type', 'recipients must be a list of one or more recipients.', RECIPIENTS.tooFew ?? WRONG_VALUE);
    return null;
  }
  if (list.length > RECIPIENTS.max) {
    issues.error('recipients', 'too_many_items', `recipients can list at most ${RECIPIENTS.max} recipients.`, RECIPIENTS.tooMany);
    return null;
  }
  const parsed = list.map((entry, index) => readParty(entry, `recipients[${index}]`, 'recipient', issues));
  return parsed.every((p) => p) ? (parsed as ParsedRecipient[]) : null;
}

/**
 * One identification: a Spanish NIF, or a foreign one (IDOtro) with country, id_type and id. Checks everything that
 * depends on the identification alone (AEAT "Validaciones y errores" v1.2.0 §3.1.3.6 and §3.1.3.7).
 */
export function readParty(given: unknown, path: string, role: PartyRole, issues: IssueCollector): Read<ParsedRecipient> {
  if (given === undefined || given === null) return undefined;
  if (!isJsonObject(given)) {
    issues.error(path, 'invalid_type', `${path} must be an object with name and nif, or name, country, id_type and id.`, WRONG_VALUE);
    return null;
  }
  rejectUnknownFields(given, FIELDS, path, issues);
  const value: Fields<SpanishPartyRequest & ForeignPartyRequest> = given;
  // NombreRazon goes with every identification; the authority names the counterparty's case (1283).
  const name = FIELD.name(value.name, path, issues, role === 'recipient' ? 1283 : undefined);
  const foreignGiven = ['country', 'id_type', 'id'].some((key) => given[key] !== undefined && given[key] !== null);

  if (value.nif !== undefined && value.nif !== null) {
    if (foreignGiven) {
      issues.error(path, 'ambiguous_recipient', `Give either ${path}.nif (Spanish NIF) or ${path}.country, id_type and id, not both.`);
      return null;
    }
    const nif = readSpanishNif(value.nif, `${path}.nif`, issues);
    return name && nif ? { kind: 'nif', name, nif } : null;
  }
  if (!foreignGiven) {
    issues.error(path, 'required', `${path} needs either nif (Spanish NIF) or country, id_type and id.`, MISSING);
    return null;
  }
  const country = readCountry(value.country, `${path}.country`, issues);
  const idType = present(
    readCode(value.id_type, `${path}.id_type`, isIdType, '02, 03, 04, 05, 06, 07', issues, 1102),
    SHAPE.required,
    path,
    'id_type',
    issues,
  );
  // CodigoPais may be left out only for an EU VAT number, whose prefix says the country (1111).
  if (country === undefined && idType && idType !== '02') {
    issues.error(`${path}.country`, 'required', `${path}.country is required unless id_type is 02 (EU VAT number).`, 1111);
  }
  const rawId = FIELD.id(value.id, path, issues);
  if (!name || country === null || !idType || !rawId || (country === undefined && idType !== '02')) return null;
  const id = checkForeignId({ path, role, country, idType, id: rawId }, issues);
  if (id === null) return null;
  return country === undefined ? { kind: 'other', name, idType, id } : { kind: 'other', name, country, idType, id };
}

function readSpanishNif(value: unknown, field: string, issues: IssueCollector): Read<string> {
  if (typeof value !== 'string') {
    issues.error(field, 'invalid_type', `${field} must be a string.`, WRONG_VALUE);
    return null;
  }
  const check = validateSpanishNif(value);
  if (!check.valid) {
    issues.error(
      field,
      'invalid_nif',
      `${field} "${check.normalized}" is not a valid Spanish NIF (wrong format or check character).`,
      1123,
    );
    return null;
  }
  return check.normalized;
}

function readCountry(value: unknown, field: string, issues: IssueCollector): Read<string> {
  if (value === undefined || value === null) return undefined;
  const code = typeof value === 'string' ? value.trim().toUpperCase() : value;
  if (!isCountryCode(code)) {
    issues.error(field, 'invalid_country', `${field} must be an ISO 3166-1 alpha-2 country code, such as FR or US.`, 1101);
    return null;
  }
  return code;
}

interface ForeignId {
  path: string;
  role: PartyRole;
  country: string | undefined;
  idType: IdType;
  id: string;
}

function checkForeignId(f: ForeignId, issues: IssueCollector): string | null {
  const { path, country, idType } = f;
  if (f.role === 'third_party') {
    // A third party is identified: never "not in the census" (1211), and with Spain only by passport (1232).
    if (idType === '07') {
      issues.error(
        `${path}.id_type`,
        'id_type_not_allowed',
        'A third party cannot be identified with id_type 07 (not in the census).',
        1211,
      );
      return null;
    }
    if (country === 'ES' && idType !== '03') {
      issues.error(
        `${path}.id_type`,
        'invalid_id_type_for_spain',
        `A Spanish third party goes in ${path}.nif; with country ES, id_type can only be 03 (passport).`,
        1232,
      );
      return null;
    }
  } else if (country === 'ES' && idType !== '03' && idType !== '07') {
    // Spain appears in IDOtro only for a passport (03) or a NIF missing from the census (07).
    issues.error(
      `${path}.id_type`,
      'invalid_id_type_for_spain',
      `A Spanish recipient goes in ${path}.nif; with country ES, id_type can only be 03 (passport) or 07 (not in the census).`,
      1234,
    );
    return null;
  }
  if (idType === '07' && country !== 'ES') {
    issues.error(`${path}.country`, 'invalid_country_for_id_type', 'id_type 07 (not in the census) requires country ES.', 1126);
    return null;
  }
  if (idType === '07') return checkUncensusedNif(path, f.id, issues);
  if (idType === '02') return checkEuVatNumber(path, country, f.id, issues);
  return f.id;
}

// A NIF missing from the census: it must still be a NIF (1290), and one of a natural person (1131).
function checkUncensusedNif(path: string, id: string, issues: IssueCollector): string | null {
  const check = validateSpanishNif(id);
  if (!check.valid) {
    issues.error(`${path}.id`, 'invalid_nif', `With id_type 07, ${path}.id must be a Spanish NIF with a correct check character.`, 1290);
    return null;
  }
  if (check.kind === 'entity') {
    issues.error(
      `${path}.id`,
      'invalid_uncensused_nif',
      `With id_type 07, ${path}.id must be the NIF of a natural person (DNI, NIE or K/L/M), not of an entity.`,
      1131,
    );
    return null;
  }
  return check.normalized;
}

function checkEuVatNumber(path: string, country: string | undefined, id: string, issues: IssueCollector): string | null {
  const check = validateEuVatNumber(country, id);
  if (!check.valid) {
    // The country and the number's prefix disagree (1122); anything else is a wrong ID (1103).
    issues.error(
      `${path}.id`,
      'invalid_eu_vat_number',
      `${path}.id is not a valid EU VAT number: ${check.reason}.`,
      check.problem === 'prefix' ? 1122 : 1103,
    );
    return null;
  }
  issues.warning(
    `${path}.id`,
    'eu_vat_number_not_verified',
    `${check.normalized} has a valid structure but was not checked against VIES; make sure it is registered before treating the operation as intra-Community.`,
  );
  return check.normalized;
}
