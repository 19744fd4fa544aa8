import type { CancellationRecord, RecordLine, RegistrationRecord } from '@vf/core';
import { abs, quotaWithin, sign, toHundredths } from './amounts';
import { invoiceDateNumber, madridDateNumber } from './spain-time';

// A real subset of AEAT's record validations (NOTES §5.1, §6.3) with AEAT's codes. Each check returns
// the first code that applies, as AEAT reports one code per line.

export interface BlockingContext {
  headerNif: string;
  unknownNifs: ReadonlySet<string>;
  now: Date;
}

const RECTIFICATIVE = new Set(['R1', 'R2', 'R3', 'R4', 'R5']);
const NEEDS_RECIPIENT = new Set(['F1', 'F3', 'R1', 'R2', 'R3', 'R4']);
const NO_RECIPIENT = new Set(['F2', 'R5']);
// ASCII 32–126 without " ' < > = ([VAL] 3.1.3.1)
const NUM_SERIE = /^[\x20-\x7e]+$/;
const NUM_SERIE_FORBIDDEN = /["'<>=]/;
const FIRST_VERIFACTU_DATE = 20241028;
const TEN_EUROS = 1000n;
const IVA_RATES = new Set([0n, 200n, 400n, 500n, 750n, 1000n, 2100n]);
const SYSTEM_ID = /^[A-Z0-9]{2}$/;
// The offset is what makes the instant unambiguous; whether AEAT accepts Z or fractions is unconfirmed.
const TIMESTAMP_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function lineError(record: RegistrationRecord, line: RecordLine, operationDate: number): number | undefined {
  const isIva = line.tax === '01';
  if ((line.tax === '01' || line.tax === '03') && line.regime === undefined) return 1245;
  if (line.tax === '05' && line.regime !== undefined) return 1260;
  const base = toHundredths(line.base) ?? 0n;
  const rate = toHundredths(line.rate);
  const quota = toHundredths(line.taxAmount);
  const hasSurcharge = line.surchargeRate !== undefined || line.surchargeAmount !== undefined;
  if (line.exemption) {
    if (line.rate !== undefined || line.taxAmount !== undefined || hasSurcharge) return 1238;
    return undefined;
  }
  if (hasSurcharge && line.qualification !== 'S1') return 1281;
  if ((line.surchargeRate === undefined) !== (line.surchargeAmount === undefined)) return 1284;
  switch (line.qualification) {
    case 'S1': {
      if (rate === undefined || quota === undefined) return 1208;
      if (sign(quota) !== 0 && sign(base) !== 0 && sign(quota) !== sign(base)) return 1143;
      const quotaChecked = record.rectificationType !== 'I' && record.invoiceType !== 'R2' && record.invoiceType !== 'R3';
      if (quotaChecked && !quotaWithin(base, rate, quota, TEN_EUROS)) return 1142;
      if (isIva) {
        if (!IVA_RATES.has(rate)) return 1124;
        if (rate === 500n && (operationDate < 20220701 || operationDate > 20240930)) return 1194;
        if ((rate === 200n || rate === 750n) && (operationDate < 20241001 || operationDate > 20241231)) return 1235;
      }
      return undefined;
    }
    case 'S2':
      if (!NEEDS_RECIPIENT.has(record.invoiceType)) return 1197;
      if (rate !== 0n || quota !== 0n) return 1198;
      return undefined;
    default:
      if (isIva && (line.rate !== undefined || line.taxAmount !== undefined || hasSurcharge)) return 1237;
      if (quota !== undefined && quota !== 0n) return 1207;
      return undefined;
  }
}

/** A non-admissible error: the record is not registered (EstadoRegistro Incorrecto). */
export function blockingError(record: RegistrationRecord, ctx: BlockingContext): number | undefined {
  if (record.id.issuerNif !== ctx.headerNif) return 1108;
  if (!NUM_SERIE.test(record.id.invoiceNumber) || NUM_SERIE_FORBIDDEN.test(record.id.invoiceNumber)) return 1130;
  const today = madridDateNumber(ctx.now);
  const issued = invoiceDateNumber(record.id.invoiceDate);
  if (issued === undefined) return 1105;
  if (issued > today) return 1112;
  if (issued < FIRST_VERIFACTU_DATE) return 1152;
  const operation = record.operationDate === undefined ? issued : invoiceDateNumber(record.operationDate);
  if (operation === undefined) return 1145;
  const deferredRegime = record.lines.some((l) => l.regime === '14' || l.regime === '15');
  if (operation > today && !deferredRegime) return 1173;

  const rectificative = RECTIFICATIVE.has(record.invoiceType);
  if (rectificative && !record.rectificationType) return 1114;
  if (!rectificative && record.rectificationType) return 1115;
  if (!rectificative && record.rectifiedInvoices?.length) return 1117;
  if (record.rectificationType === 'S' && !record.rectificationAmounts) return 1118;
  if (record.rectificationType !== 'S' && record.rectificationAmounts) return 1119;

  const recipients = record.recipients ?? [];
  if (NEEDS_RECIPIENT.has(record.invoiceType) && recipients.length === 0) return 1189;
  if (NO_RECIPIENT.has(record.invoiceType) && recipients.length > 0) return 1190;
  for (const recipient of recipients) {
    if ('nif' in recipient) {
      if (recipient.nif === ctx.headerNif || ctx.unknownNifs.has(recipient.nif)) return 1193;
    } else {
      if (recipient.idType === '07' && recipient.country !== 'ES') return 1126;
      if (recipient.country === 'ES' && recipient.idType !== '03' && recipient.idType !== '07') return 1126;
      if (recipient.idType === '02' && !NEEDS_RECIPIENT.has(record.invoiceType)) return 1156;
    }
  }

  for (const line of record.lines) {
    const code = lineError(record, line, operation);
    if (code) return code;
  }

  if (record.invoiceType === 'F2') {
    const sum = record.lines.reduce((acc, l) => acc + (toHundredths(l.base) ?? 0n) + (toHundredths(l.taxAmount) ?? 0n), 0n);
    if (sum > 300_000n + TEN_EUROS) return 1150;
  }
  const total = abs(toHundredths(record.total) ?? 0n);
  const isMacro = total >= 10_000_000_000n;
  if (isMacro && !record.macrodato) return 1139;
  if (!isMacro && record.macrodato) return 1138;
  if (!SYSTEM_ID.test(record.system.IdSistemaInformatico)) return 1177;
  if (!TIMESTAMP_WITH_ZONE.test(record.generatedAt) || !Number.isFinite(Date.parse(record.generatedAt))) return 1244;
  return undefined;
}

/** The checks an anulación shares with an alta: issuer, invoice date, system and generation time. */
export function cancellationBlockingError(record: CancellationRecord, ctx: BlockingContext): number | undefined {
  if (record.id.issuerNif !== ctx.headerNif) return 1108;
  if (invoiceDateNumber(record.id.invoiceDate) === undefined) return 1105;
  if (!SYSTEM_ID.test(record.system.IdSistemaInformatico)) return 1177;
  if (!TIMESTAMP_WITH_ZONE.test(record.generatedAt) || !Number.isFinite(Date.parse(record.generatedAt))) return 1244;
  return undefined;
}
