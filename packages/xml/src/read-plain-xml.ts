import type { XmlNode } from './xml-reader';

// A start tag with its attributes, read where the scan stands (sticky). Names are XML names with at most one prefix.
const START_TAG =
  /<([A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?)((?:\s+[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>/y;
const END_TAG = /<\/([A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?)\s*>/y;
const ATTRIBUTE = /\s+([A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const DECLARATION = /^<\?xml((?:\s+[A-Za-z_][\w.-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*\?>/;
const ENTITY = /&(amp|lt|gt|quot|apos);/g;
const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const WHITESPACE = /^\s*$/;

/** Nothing but the five predefined entities, and no carriage return (line ends are normalised by a full parser). */
const PLAIN_TEXT = /^(?:[^&\r]|&(?:amp|lt|gt|quot|apos);)*$/;

interface Open {
  qname: string;
  name: string;
  node: XmlNode;
  text: string;
  children: boolean;
  attributes: boolean;
}

function decode(raw: string): string | undefined {
  if (!PLAIN_TEXT.test(raw)) return undefined;
  return raw.includes('&') ? raw.replace(ENTITY, (_, name: string) => ENTITIES[name]) : raw;
}

function localName(qname: string): string {
  const colon = qname.indexOf(':');
  return colon < 0 ? qname : qname.slice(colon + 1);
}

/** The attributes as parseXml gives them (`@_` and the local name; namespace declarations left out); undefined if unusual. */
function readAttributes(source: string, into: XmlNode): boolean | undefined {
  let any = false;
  for (const m of source.matchAll(ATTRIBUTE)) {
    const qname = m[1];
    if (qname === 'xmlns' || qname.startsWith('xmlns:')) continue;
    const value = decode(m[2] ?? m[3]);
    const key = `@_${localName(qname)}`;
    if (value === undefined || key in into) return undefined;
    into[key] = value;
    any = true;
  }
  return any;
}

function attach(parent: Open, name: string, value: unknown, repeated: ReadonlySet<string>): void {
  parent.children = true;
  const existing = parent.node[name];
  if (existing === undefined) parent.node[name] = repeated.has(name) ? [value] : value;
  else if (Array.isArray(existing)) existing.push(value);
  else parent.node[name] = [existing, value];
}

/**
 * The tree parseXml (fast-xml-parser with its options there) makes of a document, read by a scan of its tags, for the
 * plain documents the authority answers with: elements, attributes, text with the predefined entities, an XML
 * declaration. A malformed document or anything else (comments, CDATA, a DOCTYPE, character references, mixed
 * content, a Signature, whose content parseXml keeps unparsed) gives undefined, and the caller reads it with the full
 * parser, which also says what is wrong. A 1,000-line answer is read about twenty times faster.
 */
export function readPlainXml(xml: string, repeated: ReadonlySet<string>): XmlNode | undefined {
  const doc: XmlNode = {};
  let pos = 0;
  const declaration = DECLARATION.exec(xml);
  if (declaration) {
    const attributes: XmlNode = {};
    if (readAttributes(declaration[1], attributes) === undefined) return undefined;
    doc['?xml'] = attributes;
    pos = declaration[0].length;
  }
  const top: Open = { qname: '', name: '', node: doc, text: '', children: false, attributes: false };
  const open: Open[] = [top];
  let rooted = false;
  for (;;) {
    const lt = xml.indexOf('<', pos);
    const text = xml.slice(pos, lt < 0 ? xml.length : lt);
    const current = open[open.length - 1];
    if (open.length === 1) {
      if (!WHITESPACE.test(text)) return undefined;
    } else current.text += text;
    if (lt < 0) return open.length === 1 && rooted ? doc : undefined;
    const next = xml.charCodeAt(lt + 1);
    if (next === 0x2f /* / */) {
      END_TAG.lastIndex = lt;
      const end = END_TAG.exec(xml);
      if (!end || end[1] !== current.qname) return undefined;
      open.pop();
      const trimmed = current.text.trim();
      let value: unknown;
      if (current.children) {
        if (trimmed !== '') return undefined;
        value = current.node;
      } else {
        const decoded = decode(trimmed);
        if (decoded === undefined) return undefined;
        if (current.attributes) {
          if (decoded !== '') current.node['#text'] = decoded;
          value = current.node;
        } else value = decoded;
      }
      attach(open[open.length - 1], current.name, value, repeated);
      pos = END_TAG.lastIndex;
      continue;
    }
    START_TAG.lastIndex = lt;
    const start = START_TAG.exec(xml);
    if (!start || (open.length === 1 && rooted)) return undefined;
    const name = localName(start[1]);
    if (name === '__proto__' || name === 'Signature') return undefined;
    const node: XmlNode = {};
    const attributes = readAttributes(start[2], node);
    if (attributes === undefined) return undefined;
    if (open.length === 1) rooted = true;
    if (start[3]) attach(current, name, attributes ? node : '', repeated);
    else open.push({ qname: start[1], name, node, text: '', children: false, attributes });
    pos = START_TAG.lastIndex;
  }
}
