export * from './parse-amount';
export * from './format-cents';
export * from './parse-rate';
export * from './percent-of';
