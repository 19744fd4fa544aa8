export * from './certificate-nif';
