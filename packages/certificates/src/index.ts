export * from './certificate-nif';
export * from './certificate-error';
export * from './encrypt-secret';
export * from './read-pkcs12';
export * from './rotate-stored-secrets';
