export * from './sample-records';
