export { f1Request, withLine } from './invoice-request';
export { waitUntil } from './wait-until';
