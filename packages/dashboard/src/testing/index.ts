export * from './dashboard-agent';
