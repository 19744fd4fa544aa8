export * from './validate-spanish-nif';
export * from './validate-eu-vat-number';
export * from './normalise-census-name';
