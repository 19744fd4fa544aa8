import { createHash, verify, type KeyObject } from 'node:crypto';
import { C14nCanonicalization } from 'xml-crypto';
import { childElements, childrenNamed, onlyChild, textOf } from './xml-dom';
import { C14N_10, DIGESTS, DSIG_NS, ENVELOPED_SIGNATURE, RSA_SHA256, SIGNED_PROPERTIES_TYPE } from './xades-profile';

interface NamespaceBinding {
  prefix: string;
  namespaceURI: string;
}

/**
 * The namespace declarations in scope at `el` from its ancestors, nearest first, that inclusive C14N renders on a
 * subset's apex element: what xml-crypto's own verifier passes to its canonicaliser as `ancestorNamespaces`.
 */
function ancestorNamespaces(el: Element): NamespaceBinding[] {
  const own = new Set([
    el.prefix ?? '',
    ...Array.from(el.attributes).flatMap((a) => (/^xmlns(:|$)/.test(a.name) ? [a.name.slice(6)] : [])),
  ]);
  const seen = new Set<string>();
  const out: NamespaceBinding[] = [];
  for (let at = el.parentNode; at && at.nodeType === 1; at = at.parentNode) {
    for (const attr of Array.from((at as Element).attributes)) {
      if (!/^xmlns(:|$)/.test(attr.name)) continue;
      const prefix = attr.name.slice(6);
      if (seen.has(prefix)) continue;
      seen.add(prefix);
      if (attr.value !== '' && !own.has(prefix)) out.push({ prefix, namespaceURI: attr.value });
    }
  }
  return out;
}

/** Canonical XML 1.0 without comments of an element and what it contains, as a document subset (xml-crypto). */
function canonical(el: Element): string {
  return new C14nCanonicalization().process(el as unknown as Node, { ancestorNamespaces: ancestorNamespaces(el) });
}

function elementsWithId(doc: Document, id: string): Element[] {
  const found: Element[] = [];
  const walk = (el: Element) => {
    if (el.getAttribute('Id') === id) found.push(el);
    for (const child of childElements(el)) walk(child);
  };
  walk(doc.documentElement);
  return found;
}

function transformsOf(reference: Element): string[] {
  return childrenNamed(onlyChild(reference, DSIG_NS, 'Transforms'), DSIG_NS, 'Transform').map((t) => t.getAttribute('Algorithm') ?? '');
}

/** The octets a reference digests: the record without this signature, or the one element its `#Id` names. */
function referencedOctets(doc: Document, signature: Element, reference: Element): string | { problem: string } {
  const uri = reference.getAttribute('URI');
  const transforms = transformsOf(reference);
  if (uri === '') {
    if (transforms[0] !== ENVELOPED_SIGNATURE || transforms.slice(1).some((t) => t !== C14N_10))
      return { problem: 'the record reference must use the enveloped-signature transform and then, at most, C14N 1.0' };
    const root = doc.documentElement;
    const next = signature.nextSibling;
    const parent = signature.parentNode!;
    parent.removeChild(signature);
    try {
      return canonical(root);
    } finally {
      parent.insertBefore(signature, next);
    }
  }
  if (!uri?.startsWith('#')) return { problem: `a reference points outside the record (URI "${uri ?? ''}")` };
  if (transforms.some((t) => t !== C14N_10)) return { problem: `the reference to ${uri} uses a transform other than C14N 1.0` };
  const targets = elementsWithId(doc, uri.slice(1));
  // Two elements with one Id would let a verifier digest one while a reader trusts the other (signature wrapping).
  if (targets.length !== 1) return { problem: `the reference to ${uri} names ${targets.length} elements, not one` };
  return canonical(targets[0]);
}

/**
 * The signature's cryptography (XML-DSig core validation): each reference's digest over what it points at, then
 * the RSA-SHA256 signature over the canonical SignedInfo with the certificate's key. Also that the references
 * are the two a record's signature has: the whole record, and the SignedProperties of this signature.
 */
export function signedInfoProblems(
  doc: Document,
  signature: Element,
  signedProperties: Element | undefined,
  key: KeyObject | undefined,
): string[] {
  const signedInfo = onlyChild(signature, DSIG_NS, 'SignedInfo');
  if (!signedInfo) return ['the signature has no SignedInfo'];
  const problems: string[] = [];
  const canonicalization = onlyChild(signedInfo, DSIG_NS, 'CanonicalizationMethod')?.getAttribute('Algorithm');
  if (canonicalization !== C14N_10) problems.push(`SignedInfo is canonicalised with ${canonicalization ?? '(none)'}, not C14N 1.0`);
  const method = onlyChild(signedInfo, DSIG_NS, 'SignatureMethod')?.getAttribute('Algorithm');
  if (method !== RSA_SHA256) problems.push(`the signature algorithm is ${method ?? '(none)'}, not RSA-SHA256`);

  const references = childrenNamed(signedInfo, DSIG_NS, 'Reference');
  const whole = references.filter((r) => r.getAttribute('URI') === '');
  const props = references.filter((r) => r.getAttribute('Type') === SIGNED_PROPERTIES_TYPE);
  if (references.length !== 2 || whole.length !== 1 || props.length !== 1)
    problems.push('the signature must have exactly two references: the whole record (URI="") and its SignedProperties');
  const propsId = signedProperties?.getAttribute('Id');
  if (props[0] && (!propsId || props[0].getAttribute('URI') !== `#${propsId}`))
    problems.push('the SignedProperties reference does not point at the SignedProperties of this signature');

  for (const reference of references) {
    const octets = referencedOctets(doc, signature, reference);
    if (typeof octets !== 'string') {
      problems.push(octets.problem);
      continue;
    }
    const algorithm = DIGESTS[onlyChild(reference, DSIG_NS, 'DigestMethod')?.getAttribute('Algorithm') ?? ''];
    const expected = Buffer.from(textOf(onlyChild(reference, DSIG_NS, 'DigestValue')) ?? '', 'base64');
    const name = reference.getAttribute('URI') === '' ? 'the record' : reference.getAttribute('URI');
    if (!algorithm) problems.push(`the reference to ${name} uses an unknown digest algorithm`);
    else if (!createHash(algorithm).update(octets, 'utf8').digest().equals(expected))
      problems.push(`the digest of ${name} does not match: the signed content was changed`);
  }

  const value = Buffer.from((textOf(onlyChild(signature, DSIG_NS, 'SignatureValue')) ?? '').replace(/\s+/g, ''), 'base64');
  // node:crypto would verify an EC key's signature too: RSA-SHA256 must be RSA.
  if (key && key.asymmetricKeyType !== 'rsa') problems.push(`the certificate's key is ${key.asymmetricKeyType ?? 'unknown'}, not RSA`);
  else if (key && method === RSA_SHA256 && !verify('sha256', Buffer.from(canonical(signedInfo), 'utf8'), key, value))
    problems.push('the signature value does not verify with the certificate in KeyInfo');
  return problems;
}
