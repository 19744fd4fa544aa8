export * from './types';
export * from './namespaces';
export * from './schema-files';
export * from './aeat-error-text';
export { node, nodes, parseXml, soapBodyPayload, text, XmlFormatError, type XmlNode } from './xml-reader';
export { extractSoapPayload } from './soap-payload';
export {
  buildRecordXml,
  buildRegFactuRequest,
  regFactuRequestFrame,
  writeHeader,
  type RegFactuRequestFrame,
} from './build-reg-factu-request';
export * from './parse-reg-factu-request';
export * from './build-reg-factu-response';
export * from './parse-reg-factu-reply';
export * from './build-soap-fault';
export * from './build-consulta-request';
export * from './parse-consulta-request';
export * from './build-consulta-response';
export * from './parse-consulta-reply';
export * from './validate-against-xsd';
export * from './census/census-messages';
export * from './validation/record-validation-messages';
export * from './event-xml';
