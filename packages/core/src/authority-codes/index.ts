export * from './aeat-error-table';
export * from './cause-text';
export * from './authority-code-texts';
export * from './service-cause-texts';
export * from './explain-cause';
export * from './code-catalogue';
