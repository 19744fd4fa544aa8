import { createHash } from 'node:crypto';
import type { ChainRecord } from '@vf/core';

/** SHA-256 of "name=value&…" with each value trimmed, in uppercase hex (AEAT huella specification §2–5). */
export function huellaOf(fields: readonly (readonly [string, string])[]): string {
  const input = fields.map(([name, value]) => `${name}=${value.trim()}`).join('&');
  return createHash('sha256').update(input, 'utf8').digest('hex').toUpperCase();
}

// The simulator recomputes the huella on its own rather than importing the service's implementation, so a bug
// there shows up as 2000 here instead of being agreed with.
export function expectedHuella(record: ChainRecord): string {
  const previous = ['Huella', record.previous?.hash ?? ''] as const;
  const generated = ['FechaHoraHusoGenRegistro', record.generatedAt] as const;
  return huellaOf(
    record.kind === 'cancellation'
      ? [
          ['IDEmisorFacturaAnulada', record.id.issuerNif],
          ['NumSerieFacturaAnulada', record.id.invoiceNumber],
          ['FechaExpedicionFacturaAnulada', record.id.invoiceDate],
          previous,
          generated,
        ]
      : [
          ['IDEmisorFactura', record.id.issuerNif],
          ['NumSerieFactura', record.id.invoiceNumber],
          ['FechaExpedicionFactura', record.id.invoiceDate],
          ['TipoFactura', record.invoiceType],
          ['CuotaTotal', record.totalTax],
          ['ImporteTotal', record.total],
          previous,
          generated,
        ],
  );
}
