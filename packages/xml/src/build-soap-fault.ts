import { child, serialize, soapEnvelope, unqualified } from './xml-writer';

/**
 * An AEAT-shaped SOAP 1.1 Fault (AEAT web-service description §5.1): faultcode env:Client / env:Server, faultstring
 * "Codigo[NNNN].text" when there is a code. faultcode/faultstring/detail are unqualified, as in SOAP 1.1.
 */
export function buildSoapFault(f: { side: 'client' | 'server'; code?: number; message: string }): string {
  const { doc, body } = soapEnvelope('env', [], { header: false });
  const fault = child(body, 'env', 'Fault');
  unqualified(fault, 'faultcode', f.side === 'client' ? 'env:Client' : 'env:Server');
  unqualified(fault, 'faultstring', f.code === undefined ? f.message : `Codigo[${f.code}].${f.message}`);
  unqualified(unqualified(fault, 'detail'), 'callstack', `WSExcepcion [faultcode=${f.side === 'client' ? 'Client' : 'Server'}]`);
  return serialize(doc);
}
