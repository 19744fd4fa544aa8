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

/**
 * The VERI*FACTU verification URL printed as the invoice's QR code (AEAT's QR specification v0.4.7, Orden
 * HAC/1177/2024 art. 20-21).
 * URLSearchParams encodes exactly like the authority's Java URLEncoder (space -> "+", "&" -> "%26"),
 * which encodeURIComponent does not. Values are trimmed like the record the authority stores.
 */
export function buildQrUrl(v: QrValues, opts: { production: boolean }): string {
  const query = new URLSearchParams([
    ['nif', v.nif.trim()],
    ['numserie', v.invoiceNumber.trim()],
    ['fecha', v.invoiceDate.trim()],
    ['importe', v.total.trim()],
  ]);
  return `${opts.production ? VALIDATION_URL.production : VALIDATION_URL.sandbox}${query.toString()}`;
}
