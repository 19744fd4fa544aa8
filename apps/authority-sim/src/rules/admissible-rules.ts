import { isRegimeKeyFor, type ChainRecord } from '@vf/core';
import { toHundredths } from './amounts';
import { expectedHuella } from '../record-hash';
import { madridDateNumber } from '../spain-time';
import { totalsMismatch } from './invoice-total-rules';
import type { Finding } from './rule-context';
import type { RuleSetId } from './rule-set';

// Admissible errors (AEAT Validaciones y errores v1.2.0 §4.3.1): the record IS stored, as AceptadoConErrores, and must later be corrected by
// subsanación (except 2004 and 2009). One code per record, the first found.

export interface AdmissibleContext {
  ruleSet: RuleSetId;
  /** The simulator's clock. */
  now: Date;
  toleranceSeconds: number;
  /** Whether the authority already holds records of this taxpayer + system. */
  chainExists: boolean;
}

const HEX_UPPER = /^[0-9A-F]*$/;
const IPSI_REGIME_REQUIRED_FROM = 20270101;

export function admissibleError(record: ChainRecord, ctx: AdmissibleContext): Finding | undefined {
  const current = ctx.ruleSet === 'current';
  // The previous huella is judged before the record's own: a record whose huella repeats the previous one cannot
  // have a right huella (it is computed from the previous one), and 2008 is the more telling code.
  if (record.previous) {
    if (record.previous.hash.length !== 64) return { code: 2002 };
    if (!HEX_UPPER.test(record.previous.hash)) return { code: 2003 };
    // The previous rules rejected this (1278, a content rule); the current ones store it.
    if (current && record.previous.hash === record.hash) return { code: 2008 };
  }
  if (record.hash !== expectedHuella(record)) return { code: 2000 };
  if (!record.previous && ctx.chainExists) return { code: 2007 };
  if (record.kind !== 'cancellation') {
    const lines = record.lines.map((l) => ({
      regime: l.regime,
      base: toHundredths(l.base) ?? 0n,
      quota: toHundredths(l.taxAmount),
      surchargeQuota: toHundredths(l.surchargeAmount),
    }));
    const mismatch = current ? totalsMismatch(lines, record.totalTax, record.total) : undefined;
    if (mismatch) return { code: mismatch === 'total' ? 2005 : 2006 };
    if ((record.recipients ?? []).some((r) => 'idType' in r && r.idType === '07')) return { code: 2001 };
    const ipsiWithoutItsRegime = record.lines.some((l) => l.tax === '02' && (l.regime === undefined || !isRegimeKeyFor('02', l.regime)));
    if (current && ipsiWithoutItsRegime && madridDateNumber(ctx.now) < IPSI_REGIME_REQUIRED_FROM) return { code: 2009 };
  }
  const generated = Date.parse(record.generatedAt);
  if (Math.abs(ctx.now.getTime() - generated) > ctx.toleranceSeconds * 1000) {
    return { code: 2004, detail: ` ${ctx.toleranceSeconds} segundos` };
  }
  return undefined;
}
