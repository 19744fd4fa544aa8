import type { ChainRecord } from '@vf/core';
import { canonicalAttribute, canonicalText } from '@vf/signing';
import { writeAlta, writeAnulacion } from './build-reg-factu-request';
import { PREFIX_NS, type Prefix, type XmlElement } from './xml-writer';

type OrderedElement = { ':@'?: Record<string, string> } & Record<string, unknown>;
type OrderedNode = { '#text': string } | OrderedElement;

// The writer's ordered tree (see xml-writer.ts) in Canonical XML 1.0: no declaration, no empty-element tags, text
// escaped as C14N escapes it. Record elements carry no attributes; the root carries its namespace declaration.
function write(node: OrderedNode, out: string[]): void {
  if ('#text' in node) {
    out.push(canonicalText(String(node['#text'])));
    return;
  }
  const name = Object.keys(node).find((key) => key !== ':@')!;
  const attributes = Object.entries(node[':@'] ?? {})
    .map(([key, value]) => [key.slice(2), value] as const)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  out.push(`<${name}`);
  for (const [key, value] of attributes) out.push(` ${key}="${canonicalAttribute(value)}"`);
  out.push('>');
  for (const child of node[name] as OrderedNode[]) write(child, out);
  out.push(`</${name}>`);
}

/**
 * One record (RegistroAlta or RegistroAnulacion) as a standalone document in Canonical XML 1.0, its root declaring
 * the one namespace it uses: the form a record is signed in (@vf/signing's signRecord) and embedded, byte for byte,
 * in every message that carries it (buildRegFactuRequest).
 */
export function buildRecordXml(record: ChainRecord): string {
  const holder: XmlElement = { node: {}, children: [] };
  if (record.kind === 'cancellation') writeAnulacion(holder, record);
  else writeAlta(holder, record);
  const root = holder.children[0] as OrderedElement;
  const prefix: Prefix = 'sum1';
  root[':@'] = { [`@_xmlns:${prefix}`]: PREFIX_NS[prefix] };
  const out: string[] = [];
  write(root, out);
  return out.join('');
}
