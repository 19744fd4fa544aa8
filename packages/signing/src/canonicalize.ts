import { C14nCanonicalization } from 'xml-crypto';
import { parseDocument } from './xml-dom';

/**
 * A whole document in Canonical XML 1.0 without comments (xml-crypto's canonicaliser): the generic path, for a
 * record written by someone else (e.g. the authority's example) before it is signed with signRecord. The service's
 * own records are written canonical already (see sign-record.ts).
 */
export function canonicalize(xml: string): string {
  return new C14nCanonicalization().process(parseDocument(xml).documentElement, {});
}
