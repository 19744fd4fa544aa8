import { canonicalAttribute, canonicalText } from '@vf/signing';
import type { XmlElement } from './xml-writer';

type OrderedElement = { ':@'?: Record<string, string> } & Record<string, unknown>;
type OrderedNode = { '#text': string } | OrderedElement;

// The writer's ordered tree (see xml-writer.ts) in Canonical XML 1.0: no declaration, no empty-element tags, text
// and attributes escaped as C14N escapes them, attributes sorted. Namespace declarations are given to the root only:
// the records this writes use one namespace. Concatenated as it goes, no array or entry list made an element: a
// chain's verification writes every signed record again (a few dozen elements each) to check its signature.
function write(node: OrderedNode): string {
  if ('#text' in node) return canonicalText(String(node['#text']));
  let name = '';
  for (const key in node)
    if (key !== ':@') {
      name = key;
      break;
    }
  let out = `<${name}`;
  const attributes = node[':@'];
  if (attributes) {
    // Every key is `@_` and the name: sorted as they are, they are sorted by name.
    for (const key of Object.keys(attributes).sort()) out += ` ${key.slice(2)}="${canonicalAttribute(attributes[key])}"`;
  }
  out += '>';
  for (const child of node[name] as OrderedNode[]) out += write(child);
  return `${out}</${name}>`;
}

/** An element written with the writer API (its `node`) as a standalone document in Canonical XML 1.0, declaring `namespaces`. */
export function serializeCanonical(node: XmlElement['node'], namespaces: Record<string, string>): string {
  const root = node as OrderedElement;
  root[':@'] = Object.fromEntries(Object.entries(namespaces).map(([prefix, uri]) => [`@_xmlns:${prefix}`, uri]));
  return write(root);
}
