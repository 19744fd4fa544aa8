import { isEuMemberState } from '../code-lists';
import type { ValidationIssue } from '../validation/types';
import { breakdownLine, type ClassifiedLine, type LineSpec } from './breakdown-line';
import { EU_STANDARD_VAT_RATES, EU_STANDARD_VAT_RATES_AS_OF } from './eu-standard-vat-rates';
import { readClassificationRequest, type ClassificationRequest, type SupplyType } from './read-classification-request';

export interface Classification {
  operation_class: string;
  operation_type: string;
  regime_type: string;
  tax_type: string;
  tax_rate: number;
  notes: string;
  /** The line to register the sale with: what POST /invoices/validate accepts, with base_amount filled in. */
  breakdown_line: ClassifiedLine;
}

type Case = Omit<Classification, 'breakdown_line'> & { line: LineSpec };

// An exempt line carries no rate or tax (AEAT "Validaciones y errores" v1.2.0 §3.1.3.15, 1238): the contract's rate 0 is
// said, not registered.
const EXEMPT_LINE_NOTE =
  "The contract states tax_rate 0 for this case; an exempt line carries no rate or tax in the authority's records (its rule 1238), so breakdown_line leaves them out.";

// General IPSI rate for services in each city's IPSI ordinance; goods carry product rates (0.5 % to 10 %).
const IPSI_SERVICES_RATE = { ceuta: 3, melilla: 4 } as const;

/**
 * Suggests the tax treatment of a sale (docs/api.md, `POST /invoices/classify`): one of six cases, decided first by
 * where the issuer is (Canary Islands, Ceuta, Melilla have their own taxes), then by the recipient's country and
 * whether it gave a VAT number.
 */
export function classifyOperation(body: unknown): { valid: true; data: Classification } | { valid: false; errors: ValidationIssue[] } {
  const read = readClassificationRequest(body);
  if (!read.ok) return { valid: false, errors: read.errors };
  const { line, ...fields } = classify(read.request);
  return { valid: true, data: { ...fields, breakdown_line: breakdownLine(line, read.request.baseCents) } };
}

function classify(r: ClassificationRequest): Case {
  if (r.territory === 'canarias') return canaryIslands(r);
  if (r.territory === 'ceuta' || r.territory === 'melilla') return ceutaMelilla(r, r.territory);
  if (r.country === 'ES') return domestic();
  if (isEuMemberState(r.country)) return r.vat ? intraEuBusiness(r.country, r.vat, r.supplyType) : intraEuConsumer(r.country);
  return exportOutsideEu(r.country);
}

function domestic(): Case {
  return {
    line: { tax_type: '01', regime_type: '01', operation_type: 'S1', rateHundredths: 2100n },
    operation_class: 'domestic',
    operation_type: 'S1',
    regime_type: '01',
    tax_type: '01',
    tax_rate: 21,
    notes:
      'Sale within the Spanish VAT territory (Peninsula and Balearic Islands): VAT at the general rate of 21%. ' +
      'Reduced rates of 10% and 4% apply to the goods and services listed in art. 91 of Ley 37/1992; lower tax_rate if yours qualifies. ' +
      'If the recipient is a business that must self-assess (reverse charge, e.g. certain construction services or gold), use operation_type S2 with rate 0.',
  };
}

function intraEuBusiness(country: string, vat: string, supplyType: SupplyType | undefined): Case {
  if (supplyType !== undefined) return intraEuBusinessSupply(country, vat, supplyType);
  return {
    line: { tax_type: '01', regime_type: '02', operation_type: 'E1' },
    operation_class: 'intra_eu_b2b',
    operation_type: 'E1',
    regime_type: '02',
    tax_type: '01',
    tax_rate: 0,
    notes:
      `Sale to a business registered for VAT in ${country}: no Spanish VAT is charged. Before invoicing, check ${vat} in the EU VAT validation system (VIES, ` +
      'https://ec.europa.eu/taxation_customs/vies/) and keep the result: if the number is not valid, Spanish VAT applies. ' +
      "Declare the operation in form 349. The codes above are the ones this service returns for the case; for a supply of goods the authority's " +
      'specific exemption is E5 (art. 25 Ley 37/1992, regime 01), and business services to another EU country are usually not subject in Spain ' +
      '(N2, regime 01, reverse charge by the customer); use those when registering the invoice if they describe your operation, ' +
      'or send supply_type (goods or services) to be answered with them. ' +
      EXEMPT_LINE_NOTE,
  };
}

const VIES_NOTE =
  'Before invoicing, check the VAT number in the EU VAT validation system (VIES, https://ec.europa.eu/taxation_customs/vies/) and keep the ' +
  'result: if it is not valid, Spanish VAT applies. Declare the operation in form 349.';

// The authority's own treatment once the client says what it sells (AEAT "Validaciones y errores" §3.1.3.15): goods
// are exempt under art. 25 Ley 37/1992 (E5), services to a business are not subject by the place-of-supply rules (N2);
// both under the general regime, neither with rate or tax.
function intraEuBusinessSupply(country: string, vat: string, supplyType: SupplyType): Case {
  const goods = supplyType === 'goods';
  const operationType = goods ? 'E5' : 'N2';
  return {
    line: { tax_type: '01', regime_type: '01', operation_type: operationType },
    operation_class: 'intra_eu_b2b',
    operation_type: operationType,
    regime_type: '01',
    tax_type: '01',
    tax_rate: 0,
    notes:
      (goods
        ? `Supply of goods to a business registered for VAT in ${country} (${vat}), shipped to another EU country: exempt under art. 25 of ` +
          'Ley 37/1992 (E5, regime 01); keep the proof of transport. The authority takes E5 only with recipients identified by a foreign ' +
          'identification (IDOtro, id_type 02 with the VAT number), not by a Spanish NIF (its rule 1289). '
        : `Services to a business registered for VAT in ${country} (${vat}): not subject to Spanish VAT under the place-of-supply rules ` +
          '(art. 69 Ley 37/1992; N2, regime 01); the customer self-assesses the VAT in its country (reverse charge). ') +
      VIES_NOTE +
      ' The line carries no rate or tax: the authority takes none on an exempt or not-subject line (its rules 1238 and 1237).',
  };
}

function intraEuConsumer(country: string): Case {
  const rate = EU_STANDARD_VAT_RATES[country as keyof typeof EU_STANDARD_VAT_RATES];
  return {
    // Destination VAT is not Spanish IVA: the authority takes no foreign rate on an IVA line (1124) and records the sale
    // as not subject in Spain by the place-of-supply rules, without rate or tax (1237).
    line: { tax_type: '01', regime_type: '17', operation_type: 'N2' },
    operation_class: 'intra_eu_b2c_oss',
    operation_type: 'S1',
    regime_type: '17',
    tax_type: '01',
    tax_rate: rate,
    notes:
      `Sale to a consumer in ${country} (no VAT number given): once your EU-wide distance sales of goods and telecom, broadcasting and electronic services ` +
      `exceed 10,000.00 a year (or if you opted in), ${country} VAT applies, at its standard rate of ${rate}% (as of ${EU_STANDARD_VAT_RATES_AS_OF}) unless the product has a reduced rate there, ` +
      'declared quarterly through the One-Stop Shop (OSS, form 369). Below the threshold, and for most other services, Spanish VAT at 21% applies instead (regime 01). ' +
      'If the customer is in fact a business, ask for its VAT number: the sale is then intra-Community B2B. ' +
      `The contract states operation_type S1 with ${country}'s rate for this case, but the authority's records take only Spanish IVA rates on an IVA line ` +
      `(its rule 1124): breakdown_line registers the sale as not subject in Spain (N2, regime 17), without rate or tax (rule 1237); ${country}'s VAT is declared through the OSS, not in this record.`,
  };
}

function exportOutsideEu(country: string): Case {
  return {
    line: { tax_type: '01', regime_type: '02', operation_type: 'E2' },
    operation_class: 'export',
    operation_type: 'E2',
    regime_type: '02',
    tax_type: '01',
    tax_rate: 0,
    notes:
      `Sale to a recipient in ${country}, outside the EU: goods shipped out of the EU are exempt under art. 21 of Ley 37/1992; keep the customs export ` +
      'declaration (DUA) as proof. Services to customers outside the EU are usually not subject to Spanish VAT under the place-of-supply rules ' +
      '(operation_type N2, regime 01) rather than exempt; check arts. 69 and 70 of Ley 37/1992 for exceptions (e.g. services on Spanish real estate). ' +
      EXEMPT_LINE_NOTE,
  };
}

function canaryIslands(r: ClassificationRequest): Case {
  return {
    line: { tax_type: '03', regime_type: '01', operation_type: 'S1', rateHundredths: 700n },
    operation_class: 'canary_islands_igic',
    operation_type: 'S1',
    regime_type: '01',
    tax_type: '03',
    tax_rate: 7,
    notes:
      'Issuer in the Canary Islands: IGIC applies instead of VAT, at the general rate of 7% (0% and 3% reduced, 9.5%, 15% and 20% increased rates for specific goods and services). ' +
      outsideTerritory(r, 'the Canary Islands', 'IGIC') +
      'Use regime keys from the IGIC list (L8B).',
  };
}

function ceutaMelilla(r: ClassificationRequest, city: 'ceuta' | 'melilla'): Case {
  const name = city === 'ceuta' ? 'Ceuta' : 'Melilla';
  const rate = IPSI_SERVICES_RATE[city];
  return {
    line: { tax_type: '02', regime_type: '01', operation_type: 'S1', rateHundredths: BigInt(rate * 100) },
    operation_class: 'ceuta_melilla_ipsi',
    operation_type: 'S1',
    regime_type: '01',
    tax_type: '02',
    tax_rate: rate,
    notes:
      `Issuer in ${name}: IPSI applies instead of VAT. The rate returned, ${rate}%, is the general rate for services in ${name}'s IPSI ordinance; ` +
      'goods and some services carry their own rates between 0.5% and 10% set by the ordinance, so adjust tax_rate to your product. ' +
      outsideTerritory(r, name, 'IPSI') +
      'IPSI lines should carry regime_type (01 here): from 2027 the authority rejects IPSI lines without it.',
  };
}

function outsideTerritory(r: ClassificationRequest, territory: string, tax: string): string {
  if (r.country === 'ES') return '';
  return (
    `The recipient is in ${r.country}: this result assumes the operation is taxed in ${territory}. A delivery of goods leaving ${territory} is normally an export, ` +
    `exempt from ${tax}, and services to a foreign business may be taxed where the customer is; check the place of supply before invoicing. `
  );
}
