import { parseConsultaReply, parseRegFactuReply, type ConsultaResponse, type SoapFault, type SubmissionResponse } from '@vf/xml';
import type { SoapExchange } from '../exchange/post-soap-envelope';

/** Where an answer came from over HTTP: its status and its text, kept as they came for the submission's history. */
export interface AnswerHttp {
  httpStatus: number;
  responseXml: string;
}

/**
 * An exchange with the authority, read once:
 * - `no_answer`: nothing came back (no connection, a cut, a timeout): the authority may have processed the request;
 * - `certificate_refused`: HTTP 500 with no body at all, what the authority answers when the certificate's holder is
 *   neither the taxpayer nor empowered to act for it (as integrators reported); nothing was processed;
 * - `unreadable`: an answer that is not the operation's SOAP answer (an HTML page from something in front of the
 *   service, a truncated reply); nothing was processed;
 * - `fault`: a SOAP Fault, whatever the HTTP status;
 * - `reply`: the operation's answer.
 */
export type AuthorityAnswer<T> =
  | { kind: 'no_answer'; error: string }
  | ({ kind: 'certificate_refused' } & AnswerHttp)
  | ({ kind: 'unreadable' } & AnswerHttp)
  | ({ kind: 'fault'; fault: SoapFault } & AnswerHttp)
  | ({ kind: 'reply'; reply: T } & AnswerHttp);

/** Reads an exchange with the parser of the operation's answer (which reads a SOAP Fault too). Never throws. */
export function readAnswer<T extends { kind: string }>(exchange: SoapExchange, parse: (xml: string) => T | SoapFault): AuthorityAnswer<T> {
  if (exchange.kind === 'no_answer') return exchange;
  const http: AnswerHttp = { httpStatus: exchange.status, responseXml: exchange.body };
  if (exchange.status === 500 && exchange.body.trim() === '') return { kind: 'certificate_refused', ...http };
  let parsed: T | SoapFault;
  try {
    parsed = parse(exchange.body);
  } catch {
    return { kind: 'unreadable', ...http };
  }
  return parsed.kind === 'fault' ? { kind: 'fault', fault: parsed as SoapFault, ...http } : { kind: 'reply', reply: parsed as T, ...http };
}

/** The answer to RegFactuSistemaFacturacion. */
export function readRegFactuAnswer(exchange: SoapExchange): AuthorityAnswer<SubmissionResponse> {
  return readAnswer(exchange, parseRegFactuReply);
}

/** The answer to ConsultaFactuSistemaFacturacion. */
export function readConsultaAnswer(exchange: SoapExchange): AuthorityAnswer<ConsultaResponse> {
  return readAnswer(exchange, parseConsultaReply);
}
