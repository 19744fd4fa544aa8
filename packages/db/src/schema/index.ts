export * from './accounts';
export * from './taxpayers';
export * from './chains';
export * from './systems';
export * from './invoices';
export * from './submissions';
export * from './idempotency';
export * from './webhooks';
