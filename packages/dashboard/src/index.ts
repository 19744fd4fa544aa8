export { createDashboard } from './create-dashboard';
export type * from './dashboard-api';
