import { SaxesParser, type SaxesTagPlain } from 'saxes';

/** A parsed element: child elements by local name (prefixes dropped), text as strings. */
export type XmlNode = { [name: string]: unknown };

/** Elements read as lists even when a message holds only one. */
export const REPEATED = new Set([
  'RegistroFactura',
  'DetalleDesglose',
  'IDDestinatario',
  'IDFacturaRectificada',
  'IDFacturaSustituida',
  'RespuestaLinea',
  'RegistroRespuestaConsultaFactuSistemaFacturacion',
  'Contribuyente',
]);

export class XmlFormatError extends Error {}

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/**
 * The value as a string of its own. V8 keeps a cut of 13 characters or more as a view of the string it was cut from,
 * so a value kept from a message (the simulator holds each record it registered) would keep the whole message alive:
 * 30 KB for a record of a 10-record message, megabytes in a 1,000-record one.
 */
const detached = (value: string) => (value.length < 13 ? value : (value + ' ').slice(0, -1));

/** An element being read: its own object, and its text until it closes. */
interface OpenElement {
  name: string;
  node: XmlNode;
  text: string;
  hasChildren: boolean;
  hasAttributes: boolean;
}

function add(parent: XmlNode, name: string, value: unknown): void {
  const existing = parent[name];
  if (existing === undefined) parent[name] = REPEATED.has(name) ? [value] : value;
  else if (Array.isArray(existing)) existing.push(value);
  else parent[name] = [existing, value];
}

function withAttributes(node: XmlNode, tag: SaxesTagPlain): boolean {
  let any = false;
  for (const name in tag.attributes) {
    if (name === 'xmlns' || name.startsWith('xmlns:')) continue;
    node[`@_${localName(name)}`] = detached(tag.attributes[name]);
    any = true;
  }
  return any;
}

// XML's own white space (its S production), the only blanks around a value that a receiver drops; a no-break space
// or any other Unicode blank is part of the value (JavaScript's trim() would remove them: the authority does not, and
// answers 1130 to an invoice number ending in one).
const XML_SPACE_AT_ENDS = /^[ \t\r\n]+|[ \t\r\n]+$/g;
const trimXmlSpace = (text: string) => text.replace(XML_SPACE_AT_ENDS, '');

/**
 * Reads a document in one pass with saxes, which also refuses what is not well-formed (a truncated answer must not be
 * half read). Elements are matched by local name, as prefixes vary between senders (soapenv/env/S, sum1/tik/...);
 * the schema validation done by the receiver is what pins the namespaces. Text is trimmed of XML white space; attributes are kept as
 * `@_name`, beside the text as `#text` when an element has both. A record's ds:Signature is verified on the record's
 * raw bytes (@vf/signing), never read as data: it is kept as its raw text.
 */
export function parseXml(xml: string): XmlNode {
  const parser = new SaxesParser({ xmlns: false });
  const doc: XmlNode = {};
  const open: OpenElement[] = [];
  let signature: { nested: number; start: number; node: XmlNode } | undefined;
  parser.on('opentag', (tag) => {
    if (signature) {
      signature.nested += 1;
      return;
    }
    const parent = open[open.length - 1];
    if (parent) parent.hasChildren = true;
    const name = localName(tag.name);
    const node: XmlNode = {};
    if (name === 'Signature') {
      withAttributes(node, tag);
      signature = { nested: 0, start: parser.position, node };
      open.push({ name, node, text: '', hasChildren: false, hasAttributes: true });
      return;
    }
    open.push({ name, node, text: '', hasChildren: false, hasAttributes: withAttributes(node, tag) });
  });
  // Character data and CDATA sections are both the element's text.
  const addText = (text: string) => {
    if (!signature && open.length > 0) open[open.length - 1].text += text;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', () => {
    if (signature && signature.nested > 0) {
      signature.nested -= 1;
      return;
    }
    const element = open.pop();
    if (!element) return;
    const parent = open.length > 0 ? open[open.length - 1].node : doc;
    if (signature) {
      signature.node['#text'] = xml.slice(signature.start, xml.lastIndexOf('<', parser.position - 1));
      add(parent, element.name, signature.node);
      signature = undefined;
      return;
    }
    const text = detached(trimXmlSpace(element.text));
    if (!element.hasChildren && !element.hasAttributes) add(parent, element.name, text);
    else {
      if (text !== '') element.node['#text'] = text;
      add(parent, element.name, element.node);
    }
  });
  try {
    parser.write(xml).close();
  } catch (err) {
    throw new XmlFormatError(`malformed XML: ${(err as Error).message}`);
  }
  return doc;
}

/** The element inside soapenv:Body, with its local name. */
export function soapBodyPayload(xml: string): { name: string; node: XmlNode } {
  const doc = parseXml(xml);
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
