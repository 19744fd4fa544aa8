export * from './is-valid-iso-date';
export * from './aeat-date';
export * from './madrid-today';
export * from './format-generated-at';
export * from './iso-date-math';
