import { toAeatDate } from '../dates/aeat-date';

export interface QrValues {
  /** NIF of the issuer (IDEmisorFactura). */
  nif: string;
  invoiceNumber: string;
  /** dd-mm-yyyy */
  invoiceDate: string;
  /** ImporteTotal, the same literal as in the record. */
  total: string;
}

const VALIDATION_URL = {
  sandbox: 'https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?',
  production: 'https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR?',
} as const;

// A record kept by a NO VERI*FACTU system is checked at its own service (AEAT's QR specification, and Orden
// HAC/1177/2024 annex: the invoice then carries no "VERI*FACTU" legend).
const NO_VERIFACTU_URL = {
  sandbox: 'https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQRNoVerifactu?',
  production: 'https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQRNoVerifactu?',
} as const;

/**
 * The verification URL (VERI*FACTU's, or NO VERI*FACTU's) printed as the invoice's QR code (AEAT's QR specification v0.4.7, Orden
 * HAC/1177/2024 art. 20-21).
 * URLSearchParams encodes exactly like the authority's Java URLEncoder (space -> "+", "&" -> "%26"),
 * which encodeURIComponent does not. Values are trimmed like the record the authority stores.
 */
export function buildQrUrl(v: QrValues, opts: { production: boolean; noVerifactu?: boolean }): string {
  const urls = opts.noVerifactu ? NO_VERIFACTU_URL : VALIDATION_URL;
  return (
    `${opts.production ? urls.production : urls.sandbox}nif=${formValue(v.nif)}` +
    `&numserie=${formValue(v.invoiceNumber)}&fecha=${formValue(v.invoiceDate)}&importe=${formValue(v.total)}`
  );
}

// What application/x-www-form-urlencoded leaves as it is: a value made only of these is written unchanged.
const UNENCODED = /^[A-Za-z0-9*._-]*$/;

/**
 * A value trimmed and encoded as URLSearchParams encodes it. Most values (a NIF, a date, an amount, many invoice
 * numbers) need no encoding, and each record registered builds one URL: those skip URLSearchParams' object.
 */
function formValue(value: string): string {
  const trimmed = value.trim();
  return UNENCODED.test(trimmed) ? trimmed : new URLSearchParams([['', trimmed]]).toString().slice(1);
}

/** The columns of a stored record its QR code is made of (decision 0065: the URL itself is not kept). */
export interface QrRecordColumns {
  issuerNif: string;
  invoiceNumber: string;
  /** YYYY-MM-DD */
  invoiceDate: string;
  /** ImporteTotal as kept: numeric(14, 2)'s text, the literal that was hashed and sent. */
  totalAmount: string;
  isProduction: boolean;
  /** True when the record was generated in NO VERI*FACTU; null (or false) otherwise. */
  qrNoVerifactu: boolean | null;
}

/** A stored record's QR URL, the same bytes as the one built when it was generated. Pure. */
export function recordQrUrl(r: QrRecordColumns): string {
  return buildQrUrl(
    { nif: r.issuerNif, invoiceNumber: r.invoiceNumber, invoiceDate: toAeatDate(r.invoiceDate), total: r.totalAmount },
    { production: r.isProduction, noVerifactu: r.qrNoVerifactu === true },
  );
}
