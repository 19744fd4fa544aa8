import { buildQrUrl, buildRegistrationRecord, formatGeneratedAt, toAeatDate, validateInvoiceRequest } from '@vf/core';
import { f1Request } from '@vf/core/testing';
import type { ChainRecordLine, ChainRecordRow, StoredChainRecord } from '@vf/db';
import { cancellationRecordRow } from './cancellation-record-row';
import { altaRecordRow, HashMismatchError, rebuildChainRecord, type ChainPlace } from './chain-record-row';

// What the API writes is what the worker sends: every kind of record, rebuilt from the row as stored, hashes to the
// huella computed when it was written. If the writer and its inverse drift apart, records stop being sent.

const SYSTEM = {
  vendorName: 'PROVEEDOR DE SOFTWARE SL',
  vendorNif: 'B85905495',
  name: 'Facturador',
  systemCode: 'FA',
  version: '1.0.0',
  installationNumber: 'INST-1',
  onlySupportsVerifactu: true,
  supportsMultipleTaxpayers: true,
};
const TAXPAYER = { nif: '89890001K', name: 'CONTRIBUYENTE DE PRUEBAS SL', isProduction: false };

function invoice(overrides: Record<string, unknown> = {}) {
  const result = validateInvoiceRequest(f1Request(overrides), { today: '2026-11-22' });
  if (!result.valid) throw new Error(JSON.stringify(result.errors));
  return result.invoice;
}

function placeAfter(previous: ChainRecordRow | undefined, second: number): ChainPlace {
  const at = new Date(Date.UTC(2026, 10, 22, 9, 0, second));
  return {
    chainId: 'chain-1',
    position: (previous?.chainSeq ?? 0) + 1,
    previous: previous && { ...previous },
    generated: { at, literal: formatGeneratedAt(at) },
  };
}

/** The row as the worker reads it back: its columns, its lines and the previous record it was chained to. */
function stored(row: ChainRecordRow, lines: ChainRecordLine[], previous: ChainRecordRow | undefined): StoredChainRecord {
  return {
    ...row,
    previous: previous
      ? { issuerNif: previous.issuerNif, invoiceNumber: previous.invoiceNumber, invoiceDate: previous.invoiceDate, hash: previous.hash }
      : null,
    lines,
  };
}

test('a registration, its correction and its cancellation are rebuilt from their rows with the same huella', () => {
  const registered = altaRecordRow({
    ...placeAfter(undefined, 0),
    accountId: 'account-1',
    id: 'record-1',
    taxpayer: TAXPAYER,
    invoice: invoice({ invoice_number: 'W-1' }),
    system: SYSTEM,
    severalTaxpayers: false,
    warnings: [],
  });
  const corrected = altaRecordRow({
    ...placeAfter(registered.row, 1),
    accountId: 'account-1',
    id: 'record-2',
    correcting: { invoiceId: 'record-1', rechazoPrevio: 'X' },
    taxpayer: TAXPAYER,
    invoice: invoice({ invoice_number: 'W-1', description: 'Corregida' }),
    system: SYSTEM,
    severalTaxpayers: false,
    warnings: [],
  });
  const cancelled = cancellationRecordRow({
    ...placeAfter(corrected.row, 2),
    id: 'record-3',
    latest: { ...corrected.row, lines: corrected.lines },
    isProduction: false,
    sinRegistroPrevio: false,
    rechazoPrevio: false,
    reason: 'emitida por error',
  });

  expect([registered, corrected, cancelled].map(({ row }) => [row.recordType, row.invoiceId, row.chainSeq])).toEqual([
    ['registration', 'record-1', 1],
    ['correction', 'record-1', 2],
    ['cancellation', 'record-1', 3],
  ]);
  expect(corrected.row.previousHash).toBe(registered.row.hash);
  expect(cancelled.row.previousHash).toBe(corrected.row.hash);
  expect(cancelled.lines.map((l) => l.invoiceId)).toEqual(corrected.lines.map(() => 'record-3'));

  const rebuilt = [
    rebuildChainRecord(stored(registered.row, registered.lines, undefined)),
    rebuildChainRecord(stored(corrected.row, corrected.lines, registered.row)),
    rebuildChainRecord(stored(cancelled.row, cancelled.lines, corrected.row)),
  ];
  expect(rebuilt.map((r) => r.hash)).toEqual([registered.row.hash, corrected.row.hash, cancelled.row.hash]);
});

test('a row changed after its huella was computed is not rebuilt', () => {
  const { row, lines } = altaRecordRow({
    ...placeAfter(undefined, 0),
    accountId: 'account-1',
    id: 'record-1',
    taxpayer: TAXPAYER,
    invoice: invoice(),
    system: SYSTEM,
    severalTaxpayers: false,
    warnings: [],
  });
  expect(() => rebuildChainRecord(stored({ ...row, totalAmount: '1.00' }, lines, undefined))).toThrow(HashMismatchError);
});

test("a registration's huella and QR URL are those of the whole record built from the same invoice", () => {
  const invoices = [
    invoice(),
    invoice({ invoice_number: 'W-2', total_amount: '121.0', operation_date: '2026-11-01' }),
    invoice({
      invoice_type: 'F2',
      recipient: undefined,
      total_amount: 121.5,
      total_tax_amount: 21.5,
      breakdown: [{ tax_type: '01', regime_type: '01', operation_type: 'S1', base_amount: 100, tax_rate: 21, tax_amount: 21.5 }],
    }),
    invoice({ invoice_type: 'R1', corrected_invoices: [{ invoice_number: 'W-1', invoice_date: '2026-11-01' }] }),
  ];
  let previous: ChainRecordRow | undefined;
  for (const [n, inv] of invoices.entries()) {
    const place = placeAfter(previous, n);
    const { row } = altaRecordRow({
      ...place,
      accountId: 'account-1',
      id: `record-${n}`,
      taxpayer: { ...TAXPAYER, isProduction: n % 2 === 1 },
      invoice: inv,
      system: SYSTEM,
      severalTaxpayers: false,
      warnings: [],
    });
    const record = buildRegistrationRecord({
      invoice: inv,
      issuer: TAXPAYER,
      system: row.systemSnapshot,
      previous: previous && {
        issuerNif: previous.issuerNif,
        invoiceNumber: previous.invoiceNumber,
        invoiceDate: toAeatDate(previous.invoiceDate),
        hash: previous.hash,
      },
      generatedAt: place.generated.literal,
    });
    expect(row.hash).toBe(record.hash);
    const qr = {
      nif: record.id.issuerNif,
      invoiceNumber: record.id.invoiceNumber,
      invoiceDate: record.id.invoiceDate,
      total: record.total,
    };
    expect(row.qrUrl).toBe(buildQrUrl(qr, { production: n % 2 === 1 }));
    previous = row;
  }
});
