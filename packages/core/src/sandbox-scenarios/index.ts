export * from './scenario-catalogue';
export * from './scenario-expectations';
export * from './scenario-texts';
