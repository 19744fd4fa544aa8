import type { CancellationRecord, InvoiceId, RegistrationRecord, SistemaInformatico } from '@vf/core';

/** Test fixtures: well-formed records of each shape (hashes are placeholders unless a test sets them). */
export const SAMPLE_SYSTEM: SistemaInformatico = {
  NombreRazon: 'PLATAFORMA DE PRUEBAS SL',
  NIF: 'B85905495',
  NombreSistemaInformatico: 'VF Service',
  IdSistemaInformatico: 'VF',
  Version: '0.1.0',
  NumeroInstalacion: 'tenant-1-taxpayer-1',
  TipoUsoPosibleSoloVerifactu: 'S',
  TipoUsoPosibleMultiOT: 'S',
  IndicadorMultiplesOT: 'S',
};

export const SAMPLE_ISSUER = { name: 'CONTRIBUYENTE DE PRUEBAS', nif: '89890001K' };
const PLACEHOLDER_HASH = '0'.repeat(64);

export function f1Record(id: Partial<InvoiceId> = {}, overrides: Partial<RegistrationRecord> = {}): RegistrationRecord {
  return {
    id: { issuerNif: SAMPLE_ISSUER.nif, invoiceNumber: 'A-2025-0001', invoiceDate: '15-01-2025', ...id },
    issuerName: SAMPLE_ISSUER.name,
    externalRef: 'inv_0001',
    invoiceType: 'F1',
    description: 'Servicios de consultoría & desarrollo <enero>',
    recipients: [{ name: 'CLIENTE DOS', nif: '89890002E' }],
    lines: [
      { tax: '01', regime: '01', qualification: 'S1', rate: '21.00', base: '100.00', taxAmount: '21.00' },
      { tax: '01', regime: '01', qualification: 'S1', rate: '10.00', base: '50.00', taxAmount: '5.00' },
    ],
    totalTax: '26.00',
    total: '176.00',
    system: SAMPLE_SYSTEM,
    generatedAt: '2025-01-15T10:20:30+01:00',
    hash: PLACEHOLDER_HASH,
    ...overrides,
  };
}

export function f2Record(id: Partial<InvoiceId> = {}, overrides: Partial<RegistrationRecord> = {}): RegistrationRecord {
  const record = f1Record(
    { invoiceNumber: 'T-2025-0001', ...id },
    {
      invoiceType: 'F2',
      description: 'Venta mostrador',
      lines: [{ tax: '01', regime: '01', qualification: 'S1', rate: '21.00', base: '10.00', taxAmount: '2.10' }],
      totalTax: '2.10',
      total: '12.10',
      ...overrides,
    },
  );
  if (!('recipients' in overrides)) delete record.recipients;
  return record;
}

export function r1Record(rectified: InvoiceId, overrides: Partial<RegistrationRecord> = {}): RegistrationRecord {
  return f1Record(
    { invoiceNumber: 'R-2025-0001', invoiceDate: '20-01-2025' },
    {
      invoiceType: 'R1',
      rectificationType: 'S',
      rectifiedInvoices: [rectified],
      rectificationAmounts: { base: '150.00', tax: '26.00' },
      description: 'Rectificación por sustitución',
      lines: [{ tax: '01', regime: '01', qualification: 'S1', rate: '21.00', base: '120.00', taxAmount: '25.20' }],
      totalTax: '25.20',
      total: '145.20',
      ...overrides,
    },
  );
}

export function foreignRecipientRecord(overrides: Partial<RegistrationRecord> = {}): RegistrationRecord {
  return f1Record(
    { invoiceNumber: 'A-2025-0002' },
    {
      recipients: [{ name: 'EXAMPLE GMBH', country: 'DE', idType: '02', id: 'DE123456789' }],
      lines: [{ tax: '01', regime: '01', exemption: 'E5', base: '1000.00' }],
      totalTax: '0.00',
      total: '1000.00',
      ...overrides,
    },
  );
}

/** A RegistroAnulacion of `cancelled`, chained to `previous` (placeholder huella unless overridden). */
export function cancellationRecord(cancelled: InvoiceId, overrides: Partial<CancellationRecord> = {}): CancellationRecord {
  return {
    kind: 'cancellation',
    id: cancelled,
    externalRef: 'inv_0001',
    system: SAMPLE_SYSTEM,
    generatedAt: '2025-01-15T11:00:00+01:00',
    hash: PLACEHOLDER_HASH,
    ...overrides,
  };
}
