export { xmlsec1Verifies } from './xmlsec1';
