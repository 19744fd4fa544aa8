import { canonicalAttribute, canonicalText } from '@vf/signing';
import type { XmlElement } from './xml-writer';

type OrderedElement = { ':@'?: Record<string, string> } & Record<string, unknown>;
type OrderedNode = { '#text': string } | OrderedElement;

// The writer's ordered tree (see xml-writer.ts) in Canonical XML 1.0: no declaration, no empty-element tags, text
// and attributes escaped as C14N escapes them, attributes sorted. Namespace declarations are given to the root only:
// the records this writes use one namespace.
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

/** An element written with the writer API (its `node`) as a standalone document in Canonical XML 1.0, declaring `namespaces`. */
export function serializeCanonical(node: XmlElement['node'], namespaces: Record<string, string>): string {
  const root = node as OrderedElement;
  root[':@'] = Object.fromEntries(Object.entries(namespaces).map(([prefix, uri]) => [`@_xmlns:${prefix}`, uri]));
  const out: string[] = [];
  write(root, out);
  return out.join('');
}
