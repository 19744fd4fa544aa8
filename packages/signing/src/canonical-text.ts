// Escaping as Canonical XML 1.0 writes character data and attribute values (W3C REC-xml-c14n-20010315 §2.3): text
// escapes & < > and CR; an attribute value & < " TAB LF CR. Nothing else is escaped, every other character is
// written as itself in UTF-8.
const TEXT = /[&<>\r]/;
const TEXT_ALL = /[&<>\r]/g;
const ATTRIBUTE = /[&<"\t\n\r]/;
const ATTRIBUTE_ALL = /[&<"\t\n\r]/g;
const ENTITY: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\t': '&#x9;',
  '\n': '&#xA;',
  '\r': '&#xD;',
};

export function canonicalText(value: string): string {
  return TEXT.test(value) ? value.replace(TEXT_ALL, (c) => ENTITY[c]) : value;
}

export function canonicalAttribute(value: string): string {
  return ATTRIBUTE.test(value) ? value.replace(ATTRIBUTE_ALL, (c) => ENTITY[c]) : value;
}
