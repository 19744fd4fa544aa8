import forge from 'node-forge';

/** X.520 organizationIdentifier; node-forge has no name for it. */
export const ORGANIZATION_IDENTIFIER_OID = '2.5.4.97';

// Spanish qualified certificates (ETSI EN 319 412-1) carry the holder's NIF with a semantics prefix:
// "IDCES-" (natural person) or "VATES-" (legal entity). Older ones put the bare NIF in serialNumber.
const PREFIXED = /^(?:IDC|VAT|NTR|PAS)ES-([0-9A-Z]{9})$/i;
const BARE = /^([0-9A-Z]{9})$/i;
// Fallbacks on the CN: "NOMBRE APELLIDO - 89890001K" or representative certs "... (R: B85905495)".
const CN_REPRESENTATIVE = /\(R:\s*([0-9A-Z]{9})\)/i;
const CN_TRAILING = /-\s*(?:NIF:?\s*)?([0-9A-Z]{9})\s*$/i;

function attribute(cert: forge.pki.Certificate, key: string): string | undefined {
  const found = cert.subject.attributes.find((a) => a.type === key || a.name === key || a.shortName === key);
  const value = found?.value;
  return typeof value === 'string' ? value.trim() : undefined;
}

function fromIdentifier(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const match = PREFIXED.exec(value) ?? BARE.exec(value);
  return match ? match[1].toUpperCase() : undefined;
}

/**
 * The NIF of a certificate's holder, read from its subject. A legal-entity representative's
 * certificate names both the person (serialNumber) and the entity (organizationIdentifier); the
 * entity is the one that acts, so organizationIdentifier wins.
 */
export function certificateNif(cert: forge.pki.Certificate): string | undefined {
  const fromSubject =
    fromIdentifier(attribute(cert, ORGANIZATION_IDENTIFIER_OID)) ?? fromIdentifier(attribute(cert, forge.pki.oids.serialNumber));
  if (fromSubject) return fromSubject;
  const cn = attribute(cert, forge.pki.oids.commonName);
  if (!cn) return undefined;
  const match = CN_REPRESENTATIVE.exec(cn) ?? CN_TRAILING.exec(cn);
  return match ? match[1].toUpperCase() : undefined;
}
