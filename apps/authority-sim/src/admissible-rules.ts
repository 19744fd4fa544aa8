import type { ChainRecord } from '@vf/core';
import { abs, toHundredths } from './amounts';
import { expectedHuella } from './record-hash';

export interface AdmissibleContext {
  now: Date;
  toleranceSeconds: number;
  /** Whether the authority already holds records of this taxpayer + system. */
  chainExists: boolean;
}

export interface AdmissibleError {
  code: number;
  /** Appended to the official text, as AEAT does for 2004. */
  detail?: string;
}

const TEN_EUROS = 1000n;
const HEX_UPPER = /^[0-9A-F]*$/;
// Totals are not checked for these regimes (REBU, travel agencies, VAT groups, IPSI/IGIC, agencies as mediators).
const TOTALS_UNCHECKED = new Set(['03', '05', '06', '08', '09']);

/** An admissible error: the record IS registered, as AceptadoConErrores (NOTES §6.2). Totals and recipients only concern altas. */
export function admissibleError(record: ChainRecord, ctx: AdmissibleContext): AdmissibleError | undefined {
  if (record.hash !== expectedHuella(record)) return { code: 2000 };
  if (record.previous) {
    if (record.previous.hash.length !== 64) return { code: 2002 };
    if (!HEX_UPPER.test(record.previous.hash)) return { code: 2003 };
    if (record.previous.hash === record.hash) return { code: 2008 };
  } else if (ctx.chainExists) {
    return { code: 2007 };
  }
  if (record.kind !== 'cancellation' && !record.lines.some((l) => l.regime !== undefined && TOTALS_UNCHECKED.has(l.regime))) {
    const cents = (text: string | undefined) => toHundredths(text) ?? 0n;
    const quotas = record.lines.reduce((acc, l) => acc + cents(l.taxAmount) + cents(l.surchargeAmount), 0n);
    const bases = record.lines.reduce((acc, l) => acc + cents(l.base), 0n);
    if (abs(cents(record.total) - (bases + quotas)) > TEN_EUROS) return { code: 2005 };
    if (abs(cents(record.totalTax) - quotas) > TEN_EUROS) return { code: 2006 };
  }
  if (record.kind !== 'cancellation' && (record.recipients ?? []).some((r) => 'idType' in r && r.idType === '07')) return { code: 2001 };
  const generated = Date.parse(record.generatedAt);
  if (Math.abs(ctx.now.getTime() - generated) > ctx.toleranceSeconds * 1000) {
    return { code: 2004, detail: ` ${ctx.toleranceSeconds} segundos` };
  }
  return undefined;
}
