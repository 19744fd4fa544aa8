import { createHash } from 'node:crypto';
import { chainLinkOf, isCancellation, type ChainRecord } from '../cancellation-record';
import type { SistemaInformatico } from '../registration-record';
import type { NormalizedInvoice } from '../validation/types';
import { buildCancellationRecord } from './build-cancellation-record';
import { buildRegistrationRecord } from './build-registration-record';

const system: SistemaInformatico = {
  NombreRazon: 'CERTIFICADO UNO TELEMATICAS',
  NIF: '89890001K',
  NombreSistemaInformatico: 'NombreSistemaInformatico',
  IdSistemaInformatico: '77',
  Version: '1.0.03',
  NumeroInstalacion: '383',
  TipoUsoPosibleSoloVerifactu: 'S',
  TipoUsoPosibleMultiOT: 'N',
  IndicadorMultiplesOT: 'N',
};
const issuer = { nif: '89890001K', name: 'certificado uno telematicas' };

// The invoices behind AEAT's huella specification §6.1/6.2 (CuotaTotal 12.35, ImporteTotal 123.45).
function vectorInvoice(invoiceNumber: string): NormalizedInvoice {
  return {
    taxpayerId: '3f1c2a4e-8a0b-4c7e-9f51-1d2e3f4a5b6c',
    computerSystemId: '7d9e8f10-1a2b-4c3d-8e4f-5a6b7c8d9e0f',
    invoiceNumber,
    invoiceDate: '2024-01-01',
    invoiceType: 'F1',
    description: 'Venta',
    recipients: [{ name: 'certificado dos telematicas', nif: '89890002E' }],
    correctedInvoices: [],
    substitutedInvoices: [],
    lines: [{ taxType: '01', regimeType: '01', operationType: 'S1', baseAmount: '111.10', taxRate: '11.12', taxAmount: '12.35' }],
    totalAmount: '123.45',
    totalTaxAmount: '12.35',
  };
}

function vectorChain() {
  const first = buildRegistrationRecord({
    invoice: vectorInvoice('12345678/G33'),
    issuer,
    system,
    generatedAt: '2024-01-01T19:20:30+01:00',
  });
  const second = buildRegistrationRecord({
    invoice: vectorInvoice('12345679/G34'),
    issuer,
    system,
    previous: chainLinkOf(first),
    generatedAt: '2024-01-01T19:20:35+01:00',
  });
  return { first, second };
}

describe('buildCancellationRecord', () => {
  it('reproduces AEAT huella specification §6.3: the anulación of 12345679/G34 chained after record 6.2', () => {
    const { second } = vectorChain();
    expect(second.hash).toBe('F7B94CFD8924EDFF273501B01EE5153E4CE8F259766F88CF6ACB8935802A2B97');
    const cancellation = buildCancellationRecord({
      invoice: { issuerNif: '89890001K', invoiceNumber: '12345679/G34', invoiceDate: '2024-01-01' },
      system,
      previous: chainLinkOf(second),
      generatedAt: '2024-01-01T19:20:40+01:00',
      externalRef: 'inv-7',
    });
    expect(cancellation).toEqual({
      kind: 'cancellation',
      id: { issuerNif: '89890001K', invoiceNumber: '12345679/G34', invoiceDate: '01-01-2024' },
      externalRef: 'inv-7',
      previous: { issuerNif: '89890001K', invoiceNumber: '12345679/G34', invoiceDate: '01-01-2024', hash: second.hash },
      system,
      generatedAt: '2024-01-01T19:20:40+01:00',
      hash: '177547C0D57AC74748561D054A9CEC14B4C4EA23D1BEFD6F2E69E3A388F90C68',
    });
    expect(isCancellation(cancellation)).toBe(true);
    expect(isCancellation(second)).toBe(false);
  });

  it('chains the next alta to the anulación with the anulada identifiers and the anulación huella (AEAT web-service description §9.3.1)', () => {
    const { first, second } = vectorChain();
    const cancellation = buildCancellationRecord({
      invoice: { issuerNif: '89890001K', invoiceNumber: first.id.invoiceNumber, invoiceDate: '2024-01-01' },
      system,
      previous: chainLinkOf(second),
      generatedAt: '2024-01-01T19:20:40+01:00',
    });
    const chain: ChainRecord[] = [first, second, cancellation];
    const next = buildRegistrationRecord({
      invoice: vectorInvoice('12345680/G35'),
      issuer,
      system,
      previous: chainLinkOf(chain[chain.length - 1]),
      generatedAt: '2024-01-01T19:20:45+01:00',
    });
    // The anulación cancels the FIRST invoice but is the LAST link: the next alta names the cancelled invoice.
    expect(next.previous).toEqual({
      issuerNif: '89890001K',
      invoiceNumber: '12345678/G33',
      invoiceDate: '01-01-2024',
      hash: cancellation.hash,
    });
  });

  it('writes Huella= for a first-in-chain anulación and keeps only the flags that are set', () => {
    const base = {
      invoice: { issuerNif: '89890001K', invoiceNumber: 'X-1', invoiceDate: '2025-01-01' },
      system,
      generatedAt: '2025-01-01T10:00:00+01:00',
    };
    const plain = buildCancellationRecord({ ...base, sinRegistroPrevio: false, rechazoPrevio: false });
    expect(plain).not.toHaveProperty('previous');
    expect(plain).not.toHaveProperty('sinRegistroPrevio');
    expect(plain).not.toHaveProperty('rechazoPrevio');
    expect(plain).not.toHaveProperty('externalRef');
    const input =
      'IDEmisorFacturaAnulada=89890001K&NumSerieFacturaAnulada=X-1&FechaExpedicionFacturaAnulada=01-01-2025&Huella=&FechaHoraHusoGenRegistro=2025-01-01T10:00:00+01:00';
    expect(plain.hash).toBe(createHash('sha256').update(input, 'utf8').digest('hex').toUpperCase());
    const flagged = buildCancellationRecord({ ...base, sinRegistroPrevio: true, rechazoPrevio: true });
    expect(flagged).toMatchObject({ sinRegistroPrevio: true, rechazoPrevio: true });
    // flags are not part of the huella
    expect(flagged.hash).toBe(plain.hash);
  });

  it('is deterministic and refuses a date that is not YYYY-MM-DD', () => {
    const src = {
      invoice: { issuerNif: '89890001K', invoiceNumber: 'X-1', invoiceDate: '2025-01-01' },
      system,
      generatedAt: '2025-01-01T10:00:00+01:00',
    };
    expect(buildCancellationRecord(structuredClone(src))).toEqual(buildCancellationRecord(structuredClone(src)));
    expect(() => buildCancellationRecord({ ...src, invoice: { ...src.invoice, invoiceDate: '01-01-2025' } })).toThrow(RangeError);
  });
});

describe('buildRegistrationRecord flags', () => {
  const base = { invoice: vectorInvoice('A-1'), issuer, system, generatedAt: '2024-01-01T19:20:30+01:00' };

  it('carries Subsanacion/RechazoPrevio without changing the huella, and leaves a normal alta without flags or kind', () => {
    const normal = buildRegistrationRecord(base);
    expect(normal).not.toHaveProperty('flags');
    expect(normal).not.toHaveProperty('kind');
    const byRejection = buildRegistrationRecord({ ...base, flags: { subsanacion: true, rechazoPrevio: 'X' } });
    expect(byRejection.flags).toEqual({ subsanacion: true, rechazoPrevio: 'X' });
    expect(byRejection.hash).toBe(normal.hash);
    expect(buildRegistrationRecord({ ...base, flags: { subsanacion: true } }).flags).toEqual({ subsanacion: true });
    expect(buildRegistrationRecord({ ...base, flags: { subsanacion: false } })).not.toHaveProperty('flags');
  });
});
