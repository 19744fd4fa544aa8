export * from './accounts';
export * from './taxpayers';
export * from './systems';
export * from './invoices';
export * from './submissions';
