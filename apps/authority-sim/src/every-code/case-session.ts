import { Agent } from 'node:https';
import { issueCertificate, type IssuedCertificate } from '@vf/certificates/testing';
import type { RuleSetId } from '../rules/rule-set';
import { madridInvoiceDate } from '../spain-time';
import { consultaXml, type RawConsulta } from '../testing/raw-consulta';
import { altaTree, anulacionTree, regFactuXml, type RawHeader } from '../testing/raw-records';
import { httpsCall, type HttpReply, type TestSimulator } from '../testing/test-simulator';
import type { XmlTree } from '../testing/xml-tree';

// The table-driven test of every code (every-code.test.ts): what each case may use.

export const TAXPAYER = '89890001K';
/** A taxpayer with its own certificate: not a colaborador social, so it may act only for itself. */
export const OTHER_TAXPAYER = '89890002E';
export const SECOND_COLLABORATOR = 'J99216582';
/** Well-formed identifiers the simulated census does not know. */
export const UNKNOWN_PERSON = '00000000T';
export const UNKNOWN_ENTITY = 'B00000000';
export const UNKNOWN_VAT_NUMBER = 'FR12345678901';
export const CENSUS_UNKNOWN = [UNKNOWN_PERSON, UNKNOWN_ENTITY, UNKNOWN_VAT_NUMBER];

export interface CaseSession {
  t: TestSimulator;
  /** Unique per case: the invoice number and the NumeroInstalacion of its records (each case its own chain). */
  tag: string;
  now: Date;
  /** dd-mm-yyyy, `days` from today in Madrid. */
  day(days: number): string;
  alta(patch?: XmlTree, opts?: { number?: string; installation?: string; now?: Date }): XmlTree;
  anulacion(patch?: XmlTree, opts?: { number?: string; installation?: string }): XmlTree;
  /** RegFactuSistemaFacturacion (for TAXPAYER unless the header says otherwise), by the colaborador social unless `client`. */
  send(
    records: readonly ({ alta: XmlTree } | { anulacion: XmlTree })[],
    opts?: { header?: RawHeader; client?: IssuedCertificate },
  ): Promise<HttpReply>;
  post(body: string | Buffer, opts?: { client?: IssuedCertificate; url?: string; method?: string }): Promise<HttpReply>;
  consulta(q: Partial<RawConsulta>, client?: IssuedCertificate): Promise<HttpReply>;
  certificate(nif?: string): IssuedCertificate;
}

/** How a code comes about in the simulator, and where its answer shows it. */
export interface CodeCase {
  code: number;
  /** rule: a record or message that breaks the rule; injection: only the authority could know, switched on by a test. */
  how: 'rule' | 'injection';
  /** What triggers it, in a few words (the report lists these). */
  why: string;
  /** fault: the whole message refused (SOAP Fault); line: the record's RespuestaLinea. */
  shape: 'fault' | 'line';
  ruleSet?: RuleSetId;
  run(s: CaseSession): Promise<HttpReply>;
}

const certificates = new Map<string, IssuedCertificate>();
/** One connection per certificate for the whole table: hundreds of TLS handshakes would cost more than the cases. */
export const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });

export function caseSession(t: TestSimulator, tag: string): CaseSession {
  const now = new Date();
  const certificate = (nif?: string) => {
    const key = nif ?? '(none)';
    let cert = certificates.get(key);
    if (!cert) {
      cert = issueCertificate(t.ca, { commonName: nif ? `TITULAR ${nif}` : 'CERTIFICADO SIN NIF', ...(nif ? { nif } : {}) });
      certificates.set(key, cert);
    }
    return cert;
  };
  const post: CaseSession['post'] = (body, opts = {}) =>
    httpsCall(opts.url ?? t.sim.url, { ca: t.ca, client: opts.client ?? t.platform, body, method: opts.method, agent: keepAlive });
  return {
    t,
    tag,
    now,
    day: (days) => madridInvoiceDate(new Date(now.getTime() + days * 86_400_000)),
    alta: (patch = {}, opts = {}) =>
      altaTree(TAXPAYER, opts.number ?? tag, patch, { installation: opts.installation ?? tag, now: opts.now ?? now }),
    anulacion: (patch = {}, opts = {}) =>
      anulacionTree(TAXPAYER, opts.number ?? tag, patch, { installation: opts.installation ?? tag, now }),
    send: (records, opts = {}) => post(regFactuXml(opts.header ?? { nif: TAXPAYER }, records), { client: opts.client }),
    post,
    consulta: (q, client) => post(consultaXml({ nif: TAXPAYER, ...q }), { client }),
    certificate,
  };
}
