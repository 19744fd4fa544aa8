import type { JsonAnswer } from '../idempotency/sealed-answer';
import type { RegisteredInvoice } from '@vf/chain';

/** The answer to a registration, built once for the client and for the idempotency record stored with the write. */
export function registeredAnswer(r: RegisteredInvoice): JsonAnswer & { body: { message: string; data: Record<string, unknown> } } {
  return {
    status: 201,
    location: `/api/v1/invoices/${r.id}`,
    body: { message: 'Invoice registered and queued for submission to the tax authority.', data: registeredData(r) },
  };
}

/** What the answer says of the registered invoice: also a batch item's `data`. */
export function registeredData(r: RegisteredInvoice): Record<string, unknown> {
  return {
    id: r.id,
    invoice_number: r.invoiceNumber,
    hash: r.hash,
    qr_url: r.qrUrl,
    authority_status: 'queued',
    record_type: 'registration',
    taxpayer_id: r.taxpayerId,
    chain_position: r.chainPosition,
    previous_hash: r.previousHash,
    generated_at: r.generatedAt,
    warnings: r.warnings,
  };
}
