export { f1Request, withLine } from './invoice-request';
