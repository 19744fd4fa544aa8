import type { JsonAnswer } from '../idempotency/sealed-answer';
import type { RegisteredInvoice } from '@vf/chain';

/** The answer to a registration, built once for the client and for the idempotency record stored with the write. */
export function registeredAnswer(r: RegisteredInvoice): JsonAnswer & { body: { message: string; data: Record<string, unknown> } } {
  return {
    status: 201,
    location: `/api/v1/invoices/${r.id}`,
    body: {
      message:
        r.operatingMode === 'no_verifactu'
          ? 'Invoice registered, its record signed and kept (NO VERI*FACTU: sent to the tax authority only on its request).'
          : 'Invoice registered and queued for submission to the tax authority.',
      data: registeredData(r),
    },
  };
}

/** What the answer says of the registered invoice: also a batch item's `data`. */
export function registeredData(r: RegisteredInvoice): Record<string, unknown> {
  return {
    id: r.id,
    invoice_number: r.invoiceNumber,
    hash: r.hash,
    qr_url: r.qrUrl,
    authority_status: r.operatingMode === 'no_verifactu' ? 'kept' : 'queued',
    operating_mode: r.operatingMode,
    // NO VERI*FACTU: the record exists once signed; the signed bytes as kept, and where to read them again.
    signed_record:
      r.signedXml === undefined
        ? null
        : { url: `/api/v1/invoices/${r.id}/records/${r.id}/xml`, xml_base64: Buffer.from(r.signedXml, 'utf8').toString('base64') },
    record_type: 'registration',
    taxpayer_id: r.taxpayerId,
    chain_position: r.chainPosition,
    previous_hash: r.previousHash,
    generated_at: r.generatedAt,
    warnings: r.warnings,
  };
}
