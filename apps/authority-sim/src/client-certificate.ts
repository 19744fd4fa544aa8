import type { TLSSocket } from 'node:tls';
import forge from 'node-forge';
import { certificateNif } from '@vf/certificates';

const cache = new Map<string, string | null>();

/**
 * The NIF of the TLS client certificate's holder (null when the certificate names none or cannot be
 * read). The TLS layer has already checked that it chains to the CA.
 */
export function certificateHolderNif(socket: TLSSocket): string | null {
  const peer = socket.getPeerCertificate(false);
  if (!peer?.raw) return null;
  const known = cache.get(peer.fingerprint256);
  if (known !== undefined) return known;
  let nif: string | null;
  try {
    const asn1 = forge.asn1.fromDer(forge.util.createBuffer(peer.raw.toString('binary')));
    nif = certificateNif(forge.pki.certificateFromAsn1(asn1)) ?? null;
  } catch {
    nif = null;
  }
  cache.set(peer.fingerprint256, nif);
  return nif;
}
