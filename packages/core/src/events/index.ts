export * from './sif-event';
export * from './event-hash';
