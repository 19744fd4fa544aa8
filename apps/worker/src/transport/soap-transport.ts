import { existsSync } from 'node:fs';
import type { Agent } from 'node:https';
import { basename, join } from 'node:path';
import { createClientAsync, HttpClient, type Client } from 'soap';
import { SCHEMA_DIR } from '@vf/xml';

export type SoapOperation = 'RegFactuSistemaFacturacion' | 'ConsultaFactuSistemaFacturacion';

/** What came back over the wire, uninterpreted: an HTTP answer (any status), or no answer at all. */
export type SoapExchange =
  | {
      kind: 'http';
      status: number;
      body: string;
      /** The answer's `Date` header (the authority's clock), when it had one. */
      date?: string;
    }
  | { kind: 'no_answer'; error: string };

export interface SoapTransportOptions {
  timeoutMs: number;
  wsdlPath?: string;
}

const WSDL_PATH = join(SCHEMA_DIR, 'SistemaFacturacion.wsdl');

// The WSDL and XSDs are vendored; a remote import (SuministroInformacion.xsd -> W3C xmldsig) is served from the
// local copy, and anything not vendored is refused: loading the service description never touches the network.
function localImport(includePath: string): string {
  if (!/^https?:/i.test(includePath)) return includePath;
  const local = join(SCHEMA_DIR, basename(new URL(includePath).pathname));
  if (!existsSync(local)) throw new Error(`the WSDL imports ${includePath}, which is not vendored in ${SCHEMA_DIR}`);
  return local;
}

function describeFailure(err: unknown): string {
  const e = err as { code?: string; message?: string };
  if (e?.code && e.message && !e.message.includes(e.code)) return `${e.code}: ${e.message}`;
  return e?.message ?? e?.code ?? String(err);
}

/**
 * Sends an already-built SOAP envelope over mutual TLS with the `soap` package's HTTP client and hands back the raw
 * exchange. The client is made from the vendored WSDL, which gives the operation's SOAPAction; the XML we built (the
 * audited bytes) is what goes, and the raw response text is kept whatever its HTTP status (AEAT may answer a fault
 * with HTTP 500). The answer is read by @vf/xml, once: the package's own parsing of a 1,000-line answer into objects
 * would cost as much again.
 */
export class SoapTransport {
  private readonly wsdlPath: string;
  private readonly http = new HttpClient();
  private service: Promise<Client> | undefined;

  constructor(private readonly opts: SoapTransportOptions) {
    this.wsdlPath = opts.wsdlPath ?? WSDL_PATH;
  }

  /** Reads the service description now, so that the first message does not wait for it. */
  async warmUp(): Promise<void> {
    await this.description();
  }

  /** `request`: the envelope's bytes, or its text (sent as UTF-8). */
  async send(operation: SoapOperation, endpoint: string, agent: Agent, request: string | Buffer): Promise<SoapExchange> {
    const client = await this.description();
    const headers = { 'Content-Type': 'text/xml; charset=UTF-8', SOAPAction: `"${soapActionOf(client, operation)}"` };
    // A redirect would carry the request elsewhere; AEAT does not redirect.
    const options = { httpsAgent: agent, timeout: this.opts.timeoutMs, maxRedirects: 0 };
    return new Promise((resolve) => {
      this.http.request(
        endpoint,
        request,
        (err: unknown, res?: { status?: number; headers?: Record<string, unknown> }, body?: unknown) => {
          if (err || res?.status === undefined) resolve({ kind: 'no_answer', error: describeFailure(err ?? new Error('no answer')) });
          else {
            const date = res.headers?.date;
            resolve({
              kind: 'http',
              status: res.status,
              body: typeof body === 'string' ? body : String(body ?? ''),
              ...(typeof date === 'string' && { date }),
            });
          }
        },
        headers,
        options,
      );
    });
  }

  private description(): Promise<Client> {
    this.service ??= createClientAsync(this.wsdlPath, { wsdl_options: { overrideImportLocation: localImport } });
    // A failed read is not kept: the next send tries again.
    this.service.catch(() => (this.service = undefined));
    return this.service;
  }
}

interface WsdlMethods {
  [operation: string]: { soapAction?: string };
}

/** The operation's SOAPAction as the WSDL's binding declares it (empty for AEAT's). */
function soapActionOf(client: Client, operation: SoapOperation): string {
  const methods = (client.wsdl.definitions.services.sfVerifactu.ports.SistemaVerifactu.binding as unknown as { methods: WsdlMethods })
    .methods;
  return methods[operation]?.soapAction ?? '';
}
