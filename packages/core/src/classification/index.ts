export * from './classify-operation';
export { EU_STANDARD_VAT_RATES, EU_STANDARD_VAT_RATES_AS_OF } from './eu-standard-vat-rates';
export { SUPPLY_TYPES, TERRITORIES, type SupplyType, type Territory } from './read-classification-request';
export type { ClassifiedLine } from './breakdown-line';
