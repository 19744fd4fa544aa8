import type { TLSSocket } from 'node:tls';
import forge from 'node-forge';
import { certificateNif } from '@vf/certificates';

const cache = new Map<string, string | null>();
/** The holder of each connection's certificate, with the handshake it was read after. */
const byConnection = new WeakMap<TLSSocket, { finished: Buffer; nif: string | null }>();

/**
 * The NIF of the TLS client certificate's holder (null when the certificate names none or cannot be
 * read). The TLS layer has already checked that it chains to the CA.
 */
export function certificateHolderNif(socket: TLSSocket): string | null {
  // A connection keeps the certificate of its handshake: asked again on it (keep-alive), the answer is known, unless a
  // renegotiation made a new handshake, whose Finished message differs.
  const finished = socket.getPeerFinished();
  const known = byConnection.get(socket);
  if (known && finished?.equals(known.finished)) return known.nif;
  const nif = holderNif(socket);
  if (finished) byConnection.set(socket, { finished, nif });
  return nif;
}

function holderNif(socket: TLSSocket): string | null {
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
