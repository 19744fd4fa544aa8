import type { InvoiceType } from '../registration-record';
import type { Read } from './field-readers';
import type { ParsedRecipient } from './read-recipient';

/** What the line rules need to know about the rest of the invoice. */
export interface LineContext {
  invoiceType: Read<InvoiceType>;
  /** Effective TipoRectificativa: "I" by default on corrective invoices, undefined on F*. */
  rectificationType: Read<'S' | 'I'>;
  invoiceDate: Read<string>;
  operationDate: Read<string>;
  recipients: Read<ParsedRecipient[]>;
  /** YYYY-MM-DD in Madrid. */
  today: string;
}

/** The date rate windows are judged by: FechaOperacion, else FechaExpedicionFactura. */
export function taxPointDate(ctx: LineContext): string | undefined {
  return ctx.operationDate ?? ctx.invoiceDate ?? undefined;
}
