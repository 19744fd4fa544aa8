/**
 * The form of a record's signature the authority asks for: AEAT "Especificaciones técnicas para generación de la
 * firma electrónica de los registros de facturación" v0.1.5 §4-§7 and its signed example
 * (ejemploRegistro-firmado-epes-xades4j.xml): XAdES enveloped, EPES with the AGE signature policy.
 */
export const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';
export const XADES_NS = 'http://uri.etsi.org/01903/v1.3.2#';

export const C14N_10 = 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315';
export const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
export const ENVELOPED_SIGNATURE = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';
export const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';
export const SHA1 = 'http://www.w3.org/2000/09/xmldsig#sha1';
export const SIGNED_PROPERTIES_TYPE = 'http://uri.etsi.org/01903#SignedProperties';

/** The AGE signature policy (Política de firma electrónica y de certificados de la AGE), as the specification's table gives it. */
export const SIGNATURE_POLICY = {
  identifier: 'urn:oid:2.16.724.1.3.1.1.2.1.9',
  hashAlgorithm: SHA1,
  hash: 'G7roucf600+f03r/o0bAOQ6WAs0=',
  url: 'https://sede.administracion.gob.es/politica_de_firma_anexo_1.pdf',
} as const;

/** DataObjectFormat of the signed record, as in the authority's example. */
export const DATA_OBJECT_FORMAT = { identifier: 'urn:oid:1.2.840.10003.5.109.10', mimeType: 'text/xml', encoding: 'UTF-8' } as const;

/** The digest algorithms a verifier accepts in XAdES CertDigest and references, by URI, with node:crypto's names. */
export const DIGESTS: Readonly<Record<string, string>> = {
  [SHA1]: 'sha1',
  [SHA256]: 'sha256',
  'http://www.w3.org/2001/04/xmldsig-more#sha384': 'sha384',
  'http://www.w3.org/2001/04/xmlenc#sha512': 'sha512',
};
