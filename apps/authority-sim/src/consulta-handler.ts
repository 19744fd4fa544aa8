import type { InvoiceId } from '@vf/core';
import { buildConsultaResponse, readConsultaRequest, type ConsultaRecord, type XmlNode } from '@vf/xml';
import type { StoredRecord } from './registry';
import { mayActFor, type EnvironmentState, type SimulatorContext } from './simulator-context';
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

/** ConsultaFactuSistemaFacturacion answered from one environment's registry (issuer or recipient view). */
export function handleConsulta(ctx: SimulatorContext, env: EnvironmentState, payload: XmlNode, holderNif: string | null): SoapOutcome {
  ctx.counters.consultaRequests += 1;
  const { query, dateRange } = readConsultaRequest(payload);
  const party = query.obligado ?? query.recipient;
  if (!party) return clientFault(4102);
  if (holderNif === null) return clientFault(4108);
  if (!mayActFor(ctx, holderNif, party.nif)) return clientFault(query.obligado ? 4112 : 4132);

  const period = `${query.period.year}${query.period.month}`;
  const from = dateRange?.from ? invoiceDateNumber(dateRange.from) : undefined;
  const to = dateRange?.to ? invoiceDateNumber(dateRange.to) : undefined;
  let candidates = (query.obligado ? env.registry.ofIssuer(party.nif) : env.registry.all()).filter((stored) => {
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
    return true;
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
