import { existsSync } from 'node:fs';
import type { Agent } from 'node:https';
import { basename, join } from 'node:path';
import { createClientAsync, type Client } from 'soap';
import { SCHEMA_DIR } from '@vf/xml/src/schema-files';

export type SoapOperation = 'RegFactuSistemaFacturacion' | 'ConsultaFactuSistemaFacturacion';

/** What came back over the wire, uninterpreted: an HTTP answer (any status), or no answer at all. */
export type SoapExchange =
  | { kind: 'http'; status: number; body: string; requestXml: string }
  | { kind: 'no_answer'; error: string; requestXml: string };

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
 * Sends an already-built SOAP envelope with the `soap` client over mutual TLS and hands back the raw exchange.
 * The XML we built (the audited bytes) replaces the client's own serialisation, and the raw response text is kept
 * whatever its HTTP status: AEAT may answer a fault with HTTP 500.
 */
export class SoapTransport {
  private readonly wsdlPath: string;

  constructor(private readonly opts: SoapTransportOptions) {
    this.wsdlPath = opts.wsdlPath ?? WSDL_PATH;
  }

  async send(operation: SoapOperation, endpoint: string, agent: Agent, requestXml: string): Promise<SoapExchange> {
    const client = await this.client(endpoint);
    let answer: { status: number; body: string } | undefined;
    client.on('response', (body: unknown, response: { status?: number } | undefined) => {
      if (response?.status !== undefined) answer = { status: response.status, body: typeof body === 'string' ? body : String(body ?? '') };
    });
    const port = (client as unknown as Record<string, Record<string, Record<string, SoapMethod>>>).sfVerifactu.SistemaVerifactu;
    const failure = await new Promise<unknown>((resolve) => {
      port[operation](
        {},
        (err) => resolve(err ?? undefined),
        {
          postProcess: () => requestXml,
          httpsAgent: agent,
          timeout: this.opts.timeoutMs,
          // A redirect would carry the signed-in request elsewhere; AEAT does not redirect.
          maxRedirects: 0,
        },
        { 'Content-Type': 'text/xml; charset=UTF-8' },
      );
    });
    if (answer) return { kind: 'http', status: answer.status, body: answer.body, requestXml };
    return { kind: 'no_answer', error: describeFailure(failure ?? new Error('no answer')), requestXml };
  }

  private client(endpoint: string): Promise<Client> {
    // The parsed WSDL is cached by the soap package per path: after the first call this only builds a client.
    return createClientAsync(this.wsdlPath, { endpoint, wsdl_options: { overrideImportLocation: localImport } }, endpoint);
  }
}

type SoapMethod = (args: object, callback: (err: unknown) => void, options: object, extraHeaders: object) => void;
