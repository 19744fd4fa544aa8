import type { InvoiceId } from '@vf/core';
import { node, nodes, text, type XmlNode } from '@vf/xml';
import { toHundredths } from './amounts';
import { dateNumber } from './formats';
import { recordIdOf } from './record-id';

/** A DetalleDesglose read for the content rules: amounts in cents, rates in hundredths of a percent. */
export interface LineFacts {
  /** Impuesto; absent means IVA (list L1). */
  tax: string;
  regime?: string;
  qualification?: string;
  exemption?: string;
  rate?: bigint;
  base: bigint;
  costBase?: bigint;
  quota?: bigint;
  surchargeRate?: bigint;
  surchargeQuota?: bigint;
}

/** What the content rules read of a RegistroAlta whose values all have the right form. */
export interface AltaFacts {
  raw: XmlNode;
  id: InvoiceId;
  type: string;
  rectificationType?: string;
  /** yyyymmdd */
  issued: number;
  /** FechaOperacion as yyyymmdd, when sent. */
  operation?: number;
  /** The date the tax rules go by: FechaOperacion, else FechaExpedicionFactura. */
  taxDate: number;
  recipients: XmlNode[];
  lines: LineFacts[];
}

function line(el: XmlNode): LineFacts {
  const amount = (field: string) => toHundredths(text(el, field));
  return {
    tax: text(el, 'Impuesto') ?? '01',
    regime: text(el, 'ClaveRegimen'),
    qualification: text(el, 'CalificacionOperacion'),
    exemption: text(el, 'OperacionExenta'),
    rate: amount('TipoImpositivo'),
    base: amount('BaseImponibleOimporteNoSujeto') ?? 0n,
    costBase: amount('BaseImponibleACoste'),
    quota: amount('CuotaRepercutida'),
    surchargeRate: amount('TipoRecargoEquivalencia'),
    surchargeQuota: amount('CuotaRecargoEquivalencia'),
  };
}

export function altaFacts(raw: XmlNode): AltaFacts {
  const id = recordIdOf(raw, 'alta');
  const issued = dateNumber(id.invoiceDate) ?? 0;
  const operation = dateNumber(text(raw, 'FechaOperacion'));
  return {
    raw,
    id,
    type: text(raw, 'TipoFactura') ?? '',
    rectificationType: text(raw, 'TipoRectificativa'),
    issued,
    operation,
    taxDate: operation ?? issued,
    recipients: nodes(node(raw, 'Destinatarios') ?? {}, 'IDDestinatario'),
    lines: nodes(node(raw, 'Desglose') ?? {}, 'DetalleDesglose').map(line),
  };
}

export const RECTIFICATIVE = ['R1', 'R2', 'R3', 'R4', 'R5'];
/** Types that need recipients (1189) and admit NIF-IVA (1156), S2 (1197) and the simplified-invoice flag (1183). */
export const WITH_RECIPIENTS = ['F1', 'F3', 'R1', 'R2', 'R3', 'R4'];
export const WITHOUT_RECIPIENTS = ['F2', 'R5'];

/** IVA (01), IGIC (03) or absent: the taxes ClaveRegimen 14/15 defer and several regime rules name. */
export function isVatOrIgic(tax: string): boolean {
  return tax === '01' || tax === '03';
}
