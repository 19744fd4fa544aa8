import { createHash } from 'node:crypto';
import type { ChainRecord } from '@vf/core';

// The simulator recomputes the huella on its own (AEAT [HASH] §2–5) rather than importing the
// service's implementation, so a bug there shows up as 2000 here instead of being agreed with.
export function expectedHuella(record: ChainRecord): string {
  const previous: [string, string] = ['Huella', record.previous?.hash ?? ''];
  const generated: [string, string] = ['FechaHoraHusoGenRegistro', record.generatedAt];
  const fields: [string, string][] =
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
        ];
  const input = fields.map(([name, value]) => `${name}=${value.trim()}`).join('&');
  return createHash('sha256').update(input, 'utf8').digest('hex').toUpperCase();
}
