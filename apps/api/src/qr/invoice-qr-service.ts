import type { QrFormat, QrImage } from '@vf/contract';
import type { Db } from '@vf/db';
import { invoiceStateStore } from '@vf/db';
import { ApiError } from '../errors/api-error';
import { isUuid } from '../http/is-uuid';
import { renderQrPng, renderQrSvg } from './render-qr';

export type InvoiceQrService = ReturnType<typeof createInvoiceQrService>;

/** The QR image of an invoice of the account, drawn from the qr_url stored when the record was generated. */
export function createInvoiceQrService(deps: { db: Db }) {
  return {
    async image(accountId: string, invoiceId: string, format: QrFormat): Promise<QrImage> {
      const qrUrl = isUuid(invoiceId) ? await invoiceStateStore.qrUrlOf(deps.db, accountId, invoiceId) : undefined;
      if (!qrUrl) throw new ApiError('invoice_not_found', 'No invoice with this id in your account.');
      return { format, body: format === 'png' ? await renderQrPng(qrUrl) : await renderQrSvg(qrUrl) };
    },
  };
}
