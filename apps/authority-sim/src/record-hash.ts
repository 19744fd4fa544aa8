import { createHash } from 'node:crypto';
import type { RegistrationRecord } from '@vf/core';

// The simulator recomputes the huella on its own (AEAT [HASH] §2–5) rather than importing the
// service's implementation, so a bug there shows up as 2000 here instead of being agreed with.
export function expectedHuella(record: RegistrationRecord): string {
  const fields: [string, string][] = [
    ['IDEmisorFactura', record.id.issuerNif],
    ['NumSerieFactura', record.id.invoiceNumber],
    ['FechaExpedicionFactura', record.id.invoiceDate],
    ['TipoFactura', record.invoiceType],
    ['CuotaTotal', record.totalTax],
    ['ImporteTotal', record.total],
    ['Huella', record.previous?.hash ?? ''],
    ['FechaHoraHusoGenRegistro', record.generatedAt],
  ];
  const input = fields.map(([name, value]) => `${name}=${value.trim()}`).join('&');
  return createHash('sha256').update(input, 'utf8').digest('hex').toUpperCase();
}
