import {
  DEFAULT_TAX_TYPE,
  isExemptionCode,
  isOperationQualification,
  isRegimeKeyFor,
  isTaxType,
  regimeKeyCodes,
  type ExemptionCode,
  type OperationQualification,
} from '../code-lists';
import type { TaxType } from '../registration-record';
import {
  isJsonObject,
  present,
  readCode,
  rejectUnknownFields,
  required,
  type Amount,
  type Rate,
  type Read,
  type RequiredFields,
  WRONG_VALUE,
} from './field-readers';
import { REQUEST_FIELDS, REQUEST_LISTS, type BreakdownLineRequest } from './invoice-request.generated';
import type { IssueCollector } from './issue-collector';
import { fieldReaders, shapeOf } from './read-field';
import type { Fields } from './request-fields';

export interface ParsedLine {
  path: string;
  taxType: Read<TaxType>;
  regimeType: Read<string>;
  operationType: Read<OperationQualification | ExemptionCode>;
  baseAmount: Read<Amount>;
  costBaseAmount: Read<Amount>;
  taxRate: Read<Rate>;
  taxAmount: Read<Amount>;
  surchargeRate: Read<Rate>;
  surchargeAmount: Read<Amount>;
}

/** A breakdown line's fields, as the API names them (readers, forms and views take them from here). */
export const BREAKDOWN_LINE_FIELDS = REQUEST_FIELDS.BreakdownLineRequest;
const SHAPE = shapeOf('BreakdownLineRequest');
const FIELD = fieldReaders(SHAPE);
const REQUIRED: RequiredFields = SHAPE.required;
// Desglose carries 1..12 DetalleDesglose: one per tax/regime/rate combination, not per invoice item. The sizes and their
// numbers are the schema's: more than 12 breaks the block's limit (4113); none leaves a mandatory element out (4102).
const LINES = REQUEST_LISTS.InvoiceRequest.breakdown;

/** breakdown: shape and formats of each line, plus the regime key list of its tax. */
export function readBreakdown(value: unknown, issues: IssueCollector): Read<ParsedLine[]> {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) {
    issues.error('breakdown', 'invalid_type', 'breakdown must be an array of tax breakdown lines.', WRONG_VALUE);
    return null;
  }
  if (value.length < LINES.min || value.length > LINES.max) {
    issues.error(
      'breakdown',
      'invalid_length',
      `breakdown must have between ${LINES.min} and ${LINES.max} lines (one per tax, regime and rate combination).`,
      value.length < LINES.min ? LINES.tooFew : LINES.tooMany,
    );
    return null;
  }
  const lines: ParsedLine[] = [];
  value.forEach((entry, index) => {
    const path = `breakdown[${index}]`;
    if (!isJsonObject(entry)) issues.error(path, 'invalid_type', `${path} must be an object.`, WRONG_VALUE);
    else lines.push(readLine(entry, path, issues));
  });
  return lines.length === value.length ? lines : null;
}

function readLine(line: Record<string, unknown>, path: string, issues: IssueCollector): ParsedLine {
  rejectUnknownFields(line, BREAKDOWN_LINE_FIELDS, path, issues);
  const entry: Fields<BreakdownLineRequest> = line;
  // Its codes are the authority's lists, read here (held to their presence in the schema); its amounts and rates are
  // read by their form in the schema.
  const givenTaxType = present(
    readCode(entry.tax_type, `${path}.tax_type`, isTaxType, '01 (IVA), 02 (IPSI), 03 (IGIC), 05 (other)', issues, 1218),
    REQUIRED,
    path,
    'tax_type',
    issues,
  );
  const taxType = givenTaxType === undefined ? DEFAULT_TAX_TYPE : givenTaxType;
  const isOperationType = (v: unknown): v is OperationQualification | ExemptionCode => isOperationQualification(v) || isExemptionCode(v);
  // One field carries CalificacionOperacion or OperacionExenta: a wrong E-code is a wrong exemption (1182).
  const wrongOperationCode = typeof entry.operation_type === 'string' && entry.operation_type.startsWith('E') ? 1182 : 1181;
  return {
    path,
    taxType,
    regimeType: taxType
      ? present(readRegime(entry.regime_type, `${path}.regime_type`, taxType, issues), REQUIRED, path, 'regime_type', issues)
      : null,
    // The schema leaves it optional; the authority requires CalificacionOperacion or OperacionExenta on a line (1195).
    operationType: required(
      readCode(entry.operation_type, `${path}.operation_type`, isOperationType, 'S1, S2, N1, N2 or E1 to E8', issues, wrongOperationCode),
      `${path}.operation_type`,
      issues,
      1195,
    ),
    baseAmount: FIELD.base_amount(entry.base_amount, path, issues),
    costBaseAmount: FIELD.cost_base_amount(entry.cost_base_amount, path, issues),
    taxRate: FIELD.tax_rate(entry.tax_rate, path, issues),
    taxAmount: FIELD.tax_amount(entry.tax_amount, path, issues),
    surchargeRate: FIELD.surcharge_rate(entry.surcharge_rate, path, issues),
    surchargeAmount: FIELD.surcharge_amount(entry.surcharge_amount, path, issues),
  };
}

// Any ClaveRegimen of the schema's list: an IPSI line may carry one outside the IPSI list (a date rule, line-rules.ts).
const isSchemaRegimeKey = (value: unknown): value is string => isRegimeKeyFor('01', value) || isRegimeKeyFor('03', value);

function readRegime(value: unknown, field: string, taxType: TaxType, issues: IssueCollector): Read<string> {
  if (value === undefined || value === null) return undefined;
  if (isRegimeKeyFor(taxType, value) || (taxType === '02' && isSchemaRegimeKey(value))) return value;
  // The list (sorted for the message) only for a value that is refused: every line of every body passes here.
  const allowed = regimeKeyCodes(taxType);
  if (allowed.length === 0) {
    issues.error(field, 'regime_not_allowed', 'regime_type must be left out when tax_type is 05 (other taxes).', 1260);
    return null;
  }
  issues.error(field, 'invalid_code', `regime_type for tax_type ${taxType} must be one of ${allowed.join(', ')}.`, 1246);
  return null;
}
