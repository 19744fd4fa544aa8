export * from './census-gateway';
export * from './vies-gateway';
export * from './tax-id-answer';
export * from './tax-id-check-refusal';
export * from './tax-id-checker';
export * from './run-tax-id-list';
