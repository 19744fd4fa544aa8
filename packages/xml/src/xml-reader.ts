import { XMLParser, XMLValidator } from 'fast-xml-parser';

/** A parsed element: child elements by local name (prefixes dropped), text as strings. */
export type XmlNode = { [name: string]: unknown };

const REPEATED = new Set([
  'RegistroFactura',
  'DetalleDesglose',
  'IDDestinatario',
  'IDFacturaRectificada',
  'IDFacturaSustituida',
  'RespuestaLinea',
  'RegistroRespuestaConsultaFactuSistemaFacturacion',
]);

// Prefixes vary between senders (soapenv/env/S, sum1/tik/...), so elements are matched by local
// name; the schema validation done by the receiver is what pins the namespaces.
const parser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  htmlEntities: true,
  isArray: (name) => REPEATED.has(name),
  // A record's signature is verified on the record's raw bytes (@vf/signing), never read as data: left unparsed, a
  // message of 1,000 signed records is read in half the time.
  stopNodes: ['*.Signature'],
});

export class XmlFormatError extends Error {}

/**
 * Parses a document, first checking it is well-formed (a truncated answer must not be half read). `lenient`: no
 * such check, for a reader that has checked already or does not fault malformed messages (the simulator).
 */
export function parseXml(xml: string, opts: { lenient?: boolean } = {}): XmlNode {
  const check = opts.lenient || XMLValidator.validate(xml);
  if (check !== true) throw new XmlFormatError(`malformed XML: ${check.err.msg} (line ${check.err.line})`);
  return parser.parse(xml) as XmlNode;
}

/** The element inside soapenv:Body, with its local name. */
export function soapBodyPayload(xml: string, opts: { lenient?: boolean } = {}): { name: string; node: XmlNode } {
  const doc = parseXml(xml, opts);
  const envelope = doc.Envelope as XmlNode | undefined;
  const body = envelope?.Body as XmlNode | undefined;
  if (!body || typeof body !== 'object') throw new XmlFormatError('not a SOAP envelope with a Body');
  const name = Object.keys(body).find((key) => !key.startsWith('@_') && key !== '#text');
  if (!name) throw new XmlFormatError('empty SOAP Body');
  return { name, node: (body[name] ?? {}) as XmlNode };
}

export function node(parent: XmlNode, name: string): XmlNode | undefined {
  const value = parent[name];
  if (value === undefined) return undefined;
  return (typeof value === 'object' ? value : {}) as XmlNode;
}

export function requiredNode(parent: XmlNode, name: string): XmlNode {
  const value = node(parent, name);
  if (!value) throw new XmlFormatError(`missing element ${name}`);
  return value;
}

export function nodes(parent: XmlNode, name: string): XmlNode[] {
  const value = parent[name];
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map((item) => (typeof item === 'object' ? item : {}) as XmlNode);
}

/** Text content; an element with attributes keeps its text under '#text'. */
export function text(parent: XmlNode, name: string): string | undefined {
  const value = parent[name];
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && '#text' in value) return String((value as XmlNode)['#text']);
  return '';
}

export function requiredText(parent: XmlNode, name: string): string {
  const value = text(parent, name);
  if (value === undefined) throw new XmlFormatError(`missing element ${name}`);
  return value;
}
