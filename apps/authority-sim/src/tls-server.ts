import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * HTTPS that refuses any client without a certificate chaining to the CA, as AEAT's endpoints do (mutual TLS with a
 * qualified certificate); with `anyClientCertificate`, any client certificate is taken (its holder is still read and
 * checked): beside a service in aeat mode, scenario records come with the taxpayers' real certificates.
 */
export async function listenTls(
  tls: { certPem: string; keyPem: string; caPem: string; anyClientCertificate?: boolean },
  host: string,
  port: number,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; port: number }> {
  const server = createServer(
    { cert: tls.certPem, key: tls.keyPem, ca: tls.caPem, requestCert: true, rejectUnauthorized: !tls.anyClientCertificate },
    (req, res) => void handler(req, res),
  );
  // A refused handshake or a destroyed socket is the client's business, not a server crash.
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return { server, port: (server.address() as AddressInfo).port };
}
