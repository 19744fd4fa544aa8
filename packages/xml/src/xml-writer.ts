import { XMLBuilder } from 'fast-xml-parser';
import { NS } from './namespaces';

/** Prefixes as AEAT writes them (AEAT web-service description §9.1.1.1 and its examples). */
export const PREFIX_NS = {
  soapenv: NS.soapenv,
  env: NS.soapenv,
  sum: NS.suministroLR,
  sum1: NS.suministroInformacion,
  tikR: NS.respuestaSuministro,
  tik: NS.suministroInformacion,
  con: NS.consultaLR,
  tikLRRC: NS.respuestaConsultaLR,
  sfR: NS.respuestaValRegistNoVeriFactu,
  vnif: NS.censusRequest,
  vnifs: NS.censusReply,
  sf: NS.eventosSIF,
} as const;
export type Prefix = keyof typeof PREFIX_NS;

/** An element being written: children are appended in document order (fast-xml-parser's ordered form). */
export interface XmlElement {
  readonly node: Record<string, unknown>;
  readonly children: unknown[];
}

// The messages are written as fast-xml-parser's ordered tree (element order exactly as appended) and serialized in
// one pass, escaping text and attribute values: a 1,000-record message is written several times faster than
// through a DOM (see docs/decisions/0010-xml-messages-without-a-dom.md).
const builder = new XMLBuilder({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  format: false,
  processEntities: true,
  suppressEmptyNode: true,
});

function element(qualifiedName: string, text?: string): XmlElement {
  const children: unknown[] = text === undefined ? [] : [{ '#text': text }];
  // Set, not a computed key of the literal: V8 defines a literal's computed key through the runtime, several times
  // slower, and a chain's verification writes every signed record's few dozen elements again.
  const node: Record<string, unknown> = {};
  node[qualifiedName] = children;
  return { node, children };
}

/** A new SOAP envelope declaring the given prefixes on the root; returns the document and its Body. */
export function soapEnvelope(envPrefix: 'soapenv' | 'env', prefixes: Prefix[], opts: { header: boolean; bodyId?: string }) {
  const envelope = element(`${envPrefix}:Envelope`);
  const declarations: Record<string, string> = {};
  for (const prefix of new Set<Prefix>([envPrefix, ...prefixes])) declarations[`@_xmlns:${prefix}`] = PREFIX_NS[prefix];
  envelope.node[':@'] = declarations;
  if (opts.header) envelope.children.push(element(`${envPrefix}:Header`).node);
  const body = element(`${envPrefix}:Body`);
  if (opts.bodyId) body.node[':@'] = { '@_Id': opts.bodyId };
  envelope.children.push(body.node);
  return { doc: envelope, body };
}

/** Appends `<prefix:name>` (with text when given); the text is escaped when written. */
export function child(parent: XmlElement, prefix: Prefix, name: string, text?: string): XmlElement {
  const el = element(`${prefix}:${name}`, text);
  parent.children.push(el.node);
  return el;
}

/** Appends an element without a namespace (SOAP 1.1 fault parts). */
export function unqualified(parent: XmlElement, name: string, text?: string): XmlElement {
  const el = element(name, text);
  parent.children.push(el.node);
  return el;
}

/** Appends the element only when the value is present. */
export function optional(parent: XmlElement, prefix: Prefix, name: string, text: string | undefined): void {
  if (text !== undefined) child(parent, prefix, name, text);
}

/** A new document whose root (not a SOAP envelope) declares the given prefixes; returns the root. */
export function bareDocument(root: { prefix: Prefix; name: string }, prefixes: Prefix[]): XmlElement {
  const doc = element(`${root.prefix}:${root.name}`);
  const declarations: Record<string, string> = {};
  for (const prefix of new Set<Prefix>([root.prefix, ...prefixes])) declarations[`@_xmlns:${prefix}`] = PREFIX_NS[prefix];
  doc.node[':@'] = declarations;
  return doc;
}

export function serialize(envelope: XmlElement): string {
  return builder.build([{ '?xml': [{ '#text': '' }], ':@': { '@_version': '1.0', '@_encoding': 'UTF-8' } }, envelope.node]) as string;
}
