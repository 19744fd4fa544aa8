import type { SoapFault } from './types';
import { text, type XmlNode } from './xml-reader';

const CODE = /Codigo\[(\d+)\]/;

export function readSoapFault(fault: XmlNode): SoapFault {
  const faultCode = text(fault, 'faultcode') ?? '';
  const message = text(fault, 'faultstring') ?? '';
  const code = CODE.exec(message);
  return {
    kind: 'fault',
    faultCode,
    // SOAP 1.1: "Server" means the message may succeed if resent; anything else is the sender's fault.
    side: /(^|:)Server(\.|$)/i.test(faultCode) ? 'server' : 'client',
    ...(code ? { code: Number(code[1]) } : {}),
    message,
  };
}
