export * from './authority-status';
export * from './status-transitions';
