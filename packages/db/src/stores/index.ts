export * from './store-error';
export * from './page-key';
export * from './account-store';
export * from './usage-store';
export * from './taxpayer-store';
export * from './system-store';
export * from './invoice-store';
export * from './submission-history-store';
