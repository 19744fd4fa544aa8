import type { Agent as HttpAgent, ClientRequest } from 'node:http';
import { Agent as HttpsAgent, type AgentOptions } from 'node:https';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import { checkServerIdentity, type PeerCertificate } from 'node:tls';
import { Agent as RoutingAgent, type AgentConnectOpts } from 'agent-base';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { bypassesProxy } from './no-proxy';

/** The company's HTTPS egress proxy: its URL (credentials in it, if it asks for them) and the hosts reached directly. */
export interface EgressProxy {
  url: string;
  noProxy: readonly string[];
}

/**
 * Sends each request through the proxy's CONNECT tunnel, or directly when NO_PROXY names its host. Inside the tunnel
 * the TLS session is the client's own, with its certificate, so the proxy sees neither the key nor the content.
 * https-proxy-agent opens the tunnel (CONNECT, Proxy-Authorization from the URL's credentials) and starts TLS in it
 * with the request's options, never its agent's: the certificate is handed to it here, with each connection.
 */
class EgressAgent extends RoutingAgent {
  private readonly direct: HttpsAgent;
  private readonly tunnel: HttpsProxyAgent<string>;

  constructor(
    private readonly tls: AgentOptions,
    private readonly proxy: EgressProxy,
  ) {
    super({ keepAlive: tls.keepAlive });
    this.direct = new HttpsAgent(tls);
    this.tunnel = new HttpsProxyAgent(proxy.url);
  }

  connect(req: ClientRequest, opts: AgentConnectOpts): HttpAgent | Promise<Duplex> {
    const host = opts.host?.includes(':') ? `[${opts.host}]` : (opts.host ?? 'localhost');
    const target = new URL(`${opts.secureEndpoint ? 'https' : 'http'}://${host}:${opts.port}`);
    if (bypassesProxy(target, this.proxy.noProxy)) return this.direct;
    // https-proxy-agent starts TLS without the host, so a server named by an IP address would be checked against
    // "localhost": it is checked against its own address.
    const byAddress =
      opts.host && isIP(opts.host)
        ? { checkServerIdentity: (_: string, cert: PeerCertificate) => checkServerIdentity(opts.host!, cert) }
        : {};
    // A refused tunnel (407 without the right credentials, 403 where the proxy forbids the host) says so, rather than
    // surfacing as a connection closed before an answer; either way nothing reached the authority.
    req.once('proxyConnect', ({ statusCode, statusText }: { statusCode: number; statusText: string }) => {
      if (statusCode !== 200) req.destroy(new Error(`the egress proxy refused the tunnel: HTTP ${statusCode} ${statusText}`));
    });
    return this.tunnel.connect(req, { ...opts, ...this.tls, ...byAddress } as AgentConnectOpts);
  }

  destroy(): void {
    this.direct.destroy();
    this.tunnel.destroy();
    super.destroy();
  }
}

/** The agent requests to the authority go with: mutual TLS, directly or through the egress proxy. */
export function authorityAgent(tls: AgentOptions, proxy?: EgressProxy): HttpAgent {
  return proxy ? new EgressAgent(tls, proxy) : new HttpsAgent(tls);
}
