export * from './invoice-types';
export * from './tax-types';
export * from './regime-keys';
export * from './operation-types';
export * from './id-types';
export * from './countries';
export * from './eu-member-states';
