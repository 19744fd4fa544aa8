import type { IncomingHttpHeaders } from 'node:http';
import { request, type Agent } from 'node:https';
import { createTestCa, issueCertificate, type IssuedCertificate } from '@vf/certificates/testing';
import { createSimulator, type Simulator } from '../create-simulator';
import type { SimulatorOptions } from '../simulator-types';

export const PLATFORM_NIF = 'B85905495';

export interface TestSimulator {
  sim: Simulator;
  ca: IssuedCertificate;
  /** The colaborador social's certificate (PLATFORM_NIF). */
  platform: IssuedCertificate;
  /** A certificate per requested taxpayer NIF. */
  taxpayers: Record<string, IssuedCertificate>;
  close(): Promise<void>;
}

/** A simulator on an ephemeral 127.0.0.1 port with a fresh throwaway PKI. */
export async function startTestSimulator(
  opts: Partial<Omit<SimulatorOptions, 'tls'>> & { taxpayerNifs?: string[] } = {},
): Promise<TestSimulator> {
  const ca = createTestCa();
  const server = issueCertificate(ca, { commonName: 'simulator', serverHosts: ['127.0.0.1', 'localhost'] });
  const platform = issueCertificate(ca, { commonName: 'PLATAFORMA DE PRUEBAS SL', nif: PLATFORM_NIF });
  const taxpayers = Object.fromEntries(
    (opts.taxpayerNifs ?? []).map((nif) => [nif, issueCertificate(ca, { commonName: `CONTRIBUYENTE ${nif}`, nif })]),
  );
  const { taxpayerNifs: _ignored, ...simOpts } = opts;
  const sim = await createSimulator({
    collaboratorNifs: [PLATFORM_NIF],
    ...simOpts,
    tls: { certPem: server.certPem, keyPem: server.keyPem, caPem: ca.certPem },
  });
  return { sim, ca, platform, taxpayers, close: () => sim.close() };
}

export interface HttpReply {
  status: number;
  contentType: string | undefined;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One HTTPS request with an optional client certificate; rejects on a transport error or after `timeoutMs` without an answer. */
export function httpsCall(
  url: string,
  opts: {
    ca: IssuedCertificate;
    client?: IssuedCertificate;
    method?: string;
    body?: string | Buffer;
    contentType?: string;
    timeoutMs?: number;
    /** A keep-alive agent for many calls in a row; by default each call has its own connection. */
    agent?: Agent;
  },
): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: opts.method ?? 'POST',
        ca: opts.ca.certPem,
        ...(opts.client ? { key: opts.client.keyPem, cert: opts.client.certPem } : {}),
        headers: opts.body !== undefined ? { 'Content-Type': opts.contentType ?? 'text/xml; charset=UTF-8', SOAPAction: '""' } : {},
        agent: opts.agent ?? false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: res.headers['content-type'],
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (opts.timeoutMs !== undefined) req.setTimeout(opts.timeoutMs, () => req.destroy(new Error(`no answer within ${opts.timeoutMs} ms`)));
    req.end(opts.body);
  });
}
