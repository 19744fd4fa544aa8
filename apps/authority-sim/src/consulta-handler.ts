import type { InvoiceId } from '@vf/core';
import { buildConsultaResponse, node, readConsultaRequest, text, type ConsultaRecord, type XmlNode } from '@vf/xml';
import { consultaContentError, consultaSyntaxError } from './rules/consulta-rules';
import type { StoredRecord } from './registry';
import { mayActFor, ruleContext, type EnvironmentState, type SimulatorContext } from './simulator-context';
import { systemFilter } from './consulta-filters';
import { clientFault, ok, type SoapOutcome } from './soap-outcome';
import { invoiceDateNumber } from './spain-time';

const PAGE_SIZE = 10_000;

function sameId(a: InvoiceId, b: InvoiceId): boolean {
  return a.issuerNif === b.issuerNif && a.invoiceNumber === b.invoiceNumber && a.invoiceDate === b.invoiceDate;
}

/** DatosRegistroFacturacion: the latest record held for the invoice, so its Huella is the one a 3000 refers to. */
function recordData(stored: StoredRecord, showIssuerName: boolean, showSystem: boolean): ConsultaRecord['data'] {
  const latest = stored.record;
  let data: ConsultaRecord['data'];
  if (latest.kind === 'cancellation') {
    const { id: _id, kind: _kind, system: _system, sinRegistroPrevio, rechazoPrevio, ...rest } = latest;
    data = { ...rest, ...(sinRegistroPrevio ? { sinRegistroPrevio } : {}), ...(rechazoPrevio ? { flags: { rechazoPrevio: 'S' } } : {}) };
  } else {
    const { id: _id, kind: _kind, system: _system, issuerName: _name, ...rest } = latest;
    data = rest;
  }
  if (showIssuerName && stored.alta) data.issuerName = stored.alta.issuerName;
  if (showSystem) data.system = latest.system;
  return data;
}

function toConsultaRecord(stored: StoredRecord, showIssuerName: boolean, showSystem: boolean): ConsultaRecord {
  return {
    id: stored.record.id,
    data: recordData(stored, showIssuerName, showSystem),
    incident: stored.incident,
    presentation: { presenterNif: stored.presenterNif, presentedAt: stored.presentedAt, requestId: stored.requestId },
    state: stored.state,
    lastModified: stored.presentedAt,
    ...(stored.errorCode !== undefined ? { errorCode: stored.errorCode, errorDescription: stored.errorDescription } : {}),
  };
}

/** Values of the request without their schema form: the whole request is refused before the schema check. */
export function prepareConsulta(ctx: SimulatorContext, payload: XmlNode): SoapOutcome | undefined {
  const code = consultaSyntaxError(payload);
  return code ? clientFault(code, '', ctx.behaviour.ruleSet) : undefined;
}

/** Contraparte filter: the invoice's alta has a recipient with that NIF or IDOtro/ID. */
function hasCounterparty(stored: StoredRecord, counterparty: XmlNode | undefined): boolean {
  if (!counterparty) return true;
  const nif = text(counterparty, 'NIF');
  const id = text(node(counterparty, 'IDOtro') ?? {}, 'ID');
  return (stored.alta?.recipients ?? []).some((r) => ('nif' in r ? r.nif === nif : r.id === id));
}

/** ConsultaFactuSistemaFacturacion answered from one environment's registry (issuer or recipient view). */
export function handleConsulta(ctx: SimulatorContext, env: EnvironmentState, payload: XmlNode, holderNif: string | null): SoapOutcome {
  ctx.counters.consultaRequests += 1;
  const ruleSet = ctx.behaviour.ruleSet;
  const { query, dateRange } = readConsultaRequest(payload);
  const party = query.obligado ?? query.recipient;
  if (!party) return clientFault(4102, '', ruleSet);
  if (holderNif === null) return clientFault(4108, '', ruleSet);
  if (!mayActFor(ctx, holderNif, party.nif)) return clientFault(query.obligado ? 4112 : 4132, '', ruleSet);
  // Asking as a representative takes powers for the consulta trámite: a colaborador social has them (4140 otherwise).
  if (text(node(payload, 'Cabecera') ?? {}, 'IndicadorRepresentante') === 'S' && !ctx.collaboratorNifs.has(holderNif)) {
    return clientFault(4140, '', ruleSet);
  }
  const refused = consultaContentError(payload, ruleContext(ctx, party.nif));
  if (refused) return clientFault(refused.code, refused.detail, ruleSet);
  const filter = node(payload, 'FiltroConsulta') ?? {};
  const counterparty = node(filter, 'Contraparte');

  const period = `${query.period.year}${query.period.month}`;
  const from = dateRange?.from ? invoiceDateNumber(dateRange.from) : undefined;
  const to = dateRange?.to ? invoiceDateNumber(dateRange.to) : undefined;
  const held = query.obligado ? env.registry.ofIssuer(party.nif) : env.registry.all();
  const bySystem = systemFilter(held, node(filter, 'SistemaInformatico'));
  if (typeof bySystem === 'number') return clientFault(bySystem, '', ruleSet);
  let candidates = bySystem.filter((stored) => {
    const id = stored.record.id;
    // Filters read the invoice's alta; an invoice known only by its anulación has just its id.
    const alta = stored.alta;
    if (query.recipient && !(alta?.recipients ?? []).some((x) => 'nif' in x && x.nif === party.nif)) return false;
    const imputation = String(invoiceDateNumber(alta?.operationDate ?? id.invoiceDate)).slice(0, 6);
    if (imputation !== period) return false;
    if (query.invoiceNumber !== undefined && id.invoiceNumber !== query.invoiceNumber) return false;
    if (query.invoiceDate !== undefined && id.invoiceDate !== query.invoiceDate) return false;
    const issued = invoiceDateNumber(id.invoiceDate) ?? 0;
    if ((from !== undefined && issued < from) || (to !== undefined && issued > to)) return false;
    if (query.externalRef !== undefined && stored.record.externalRef !== query.externalRef) return false;
    return hasCounterparty(stored, counterparty);
  });
  if (query.pageKey) {
    const after = candidates.findIndex((s) => sameId(s.record.id, query.pageKey!));
    candidates = after >= 0 ? candidates.slice(after + 1) : [];
  }
  const page = candidates.slice(0, PAGE_SIZE);
  const hasMore = candidates.length > PAGE_SIZE;
  const records = page.map((s) => toConsultaRecord(s, query.showIssuerName === true, query.showSystem === true && !query.recipient));
  return ok(
    buildConsultaResponse({
      as: query.obligado ? 'obligado' : 'recipient',
      obligado: party,
      period: query.period,
      hasMore,
      records,
      ...(hasMore ? { pageKey: page[page.length - 1].record.id } : {}),
    }),
  );
}
