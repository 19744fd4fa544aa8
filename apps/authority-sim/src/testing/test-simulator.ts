import { request } from 'node:https';
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
  body: string;
}

/** One HTTPS request with an optional client certificate; rejects on a transport error. */
export function httpsCall(
  url: string,
  opts: { ca: IssuedCertificate; client?: IssuedCertificate; method?: string; body?: string; contentType?: string },
): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: opts.method ?? 'POST',
        ca: opts.ca.certPem,
        ...(opts.client ? { key: opts.client.keyPem, cert: opts.client.certPem } : {}),
        headers: opts.body !== undefined ? { 'Content-Type': opts.contentType ?? 'text/xml; charset=UTF-8', SOAPAction: '""' } : {},
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, contentType: res.headers['content-type'], body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}
