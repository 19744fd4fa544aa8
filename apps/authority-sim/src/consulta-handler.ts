import type { InvoiceId } from '@vf/core';
import { buildConsultaResponse, parseConsultaRequest, type ConsultaRecord } from '@vf/xml';
import type { StoredRecord } from './registry';
import { mayActFor, type SimulatorContext } from './simulator-context';
import { clientFault, ok, type SoapOutcome } from './soap-outcome';
import { invoiceDateNumber } from './spain-time';

const PAGE_SIZE = 10_000;

function sameId(a: InvoiceId, b: InvoiceId): boolean {
  return a.issuerNif === b.issuerNif && a.invoiceNumber === b.invoiceNumber && a.invoiceDate === b.invoiceDate;
}

function toConsultaRecord(stored: StoredRecord, showIssuerName: boolean, showSystem: boolean): ConsultaRecord {
  const { id, system, issuerName, ...rest } = stored.record;
  const data: ConsultaRecord['data'] = { ...rest };
  if (showIssuerName) data.issuerName = issuerName;
  if (showSystem) data.system = system;
  return {
    id,
    data,
    incident: stored.incident,
    presentation: { presenterNif: stored.presenterNif, presentedAt: stored.presentedAt, requestId: stored.requestId },
    state: stored.state,
    lastModified: stored.presentedAt,
    ...(stored.errorCode !== undefined ? { errorCode: stored.errorCode, errorDescription: stored.errorDescription } : {}),
  };
}

/** ConsultaFactuSistemaFacturacion answered from the registry (issuer or recipient view). */
export function handleConsulta(ctx: SimulatorContext, xml: string, holderNif: string | null): SoapOutcome {
  ctx.counters.consultaRequests += 1;
  const { query, dateRange } = parseConsultaRequest(xml);
  const party = query.obligado ?? query.recipient;
  if (!party) return clientFault(4102);
  if (holderNif === null) return clientFault(4108);
  if (!mayActFor(ctx, holderNif, party.nif)) return clientFault(query.obligado ? 4112 : 4132);

  const period = `${query.period.year}${query.period.month}`;
  const from = dateRange?.from ? invoiceDateNumber(dateRange.from) : undefined;
  const to = dateRange?.to ? invoiceDateNumber(dateRange.to) : undefined;
  let candidates = (query.obligado ? ctx.registry.ofIssuer(party.nif) : ctx.registry.all()).filter((stored) => {
    const r = stored.record;
    if (query.recipient && !(r.recipients ?? []).some((x) => 'nif' in x && x.nif === party.nif)) return false;
    const imputation = String(invoiceDateNumber(r.operationDate ?? r.id.invoiceDate)).slice(0, 6);
    if (imputation !== period) return false;
    if (query.invoiceNumber !== undefined && r.id.invoiceNumber !== query.invoiceNumber) return false;
    if (query.invoiceDate !== undefined && r.id.invoiceDate !== query.invoiceDate) return false;
    const issued = invoiceDateNumber(r.id.invoiceDate) ?? 0;
    if ((from !== undefined && issued < from) || (to !== undefined && issued > to)) return false;
    if (query.externalRef !== undefined && r.externalRef !== query.externalRef) return false;
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
