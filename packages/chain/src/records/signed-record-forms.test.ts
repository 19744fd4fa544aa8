import { createHash } from 'node:crypto';
import { formatGeneratedAt, validateInvoiceRequest } from '@vf/core';
import { f1Request } from '@vf/core/testing';
import type { ChainRecordRow, StoredChainRecord } from '@vf/db';
import { cancellationRecordRow } from './cancellation-record-row';
import { altaRecordRow, type ChainPlace } from './chain-record-row';
import { signedRecordForms } from './signed-record-forms';

// A signed record kept as parts is written again by its form's writer for as long as it is kept: these rows' bytes
// are pinned. If this test fails, the record writer or the signature writer changed what they write: the records
// already kept in form 1 would read back as bytes that were never sent. Keep form 1 writing what it wrote (its own
// copy of the old writer) and make the new writing form 2 (decision 0064); never update these digests.
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
const PARTS = {
  signatureValue: Buffer.alloc(256, 7),
  signingTime: new Date('2026-11-22T09:00:05.123Z'),
  signatureId: null,
  certificate: 'MIIBfixedCertificateBase64==',
  signingCertificate: '<xades:Cert>fixed</xades:Cert>',
};

function invoice(overrides: Record<string, unknown>) {
  const result = validateInvoiceRequest(f1Request(overrides), { today: '2026-11-22' });
  if (!result.valid) throw new Error(JSON.stringify(result.errors));
  return result.invoice;
}

function placeAfter(previous: ChainRecordRow | undefined, second: number): ChainPlace {
  const at = new Date(Date.UTC(2026, 10, 22, 9, 0, second));
  return { chainId: 'chain-1', position: (previous?.chainSeq ?? 0) + 1, previous, generated: { at, literal: formatGeneratedAt(at) } };
}

function stored(written: { row: ChainRecordRow; lines: StoredChainRecord['lines'] }, previous?: ChainRecordRow): StoredChainRecord {
  const link = previous && { issuerNif: previous.issuerNif, invoiceNumber: previous.invoiceNumber, invoiceDate: previous.invoiceDate };
  return { ...written.row, previous: link ? { ...link, hash: previous.hash } : null, lines: written.lines };
}

function rows(): StoredChainRecord[] {
  const common = { accountId: 'account-1', taxpayer: TAXPAYER, system: SYSTEM, severalTaxpayers: false, warnings: [] };
  const first = altaRecordRow({
    ...placeAfter(undefined, 0),
    ...common,
    id: '0193a000-0000-7000-8000-000000000001',
    invoice: invoice({
      invoice_number: 'W-1',
      description: 'Reparación «Ñandú» & cía <urgente>',
      recipient: { name: 'Müller & Söhne', nif: 'B85905495' },
    }),
  });
  const bare = altaRecordRow({
    ...placeAfter(first.row, 1),
    ...common,
    id: '0193a000-0000-7000-8000-000000000002',
    invoice: invoice({ invoice_number: 'W-2', invoice_type: 'F2', recipient: undefined }),
  });
  const cancelled = cancellationRecordRow({
    ...placeAfter(bare.row, 2),
    id: '0193a000-0000-7000-8000-000000000003',
    latest: { ...bare.row, lines: bare.lines },
    isProduction: false,
    sinRegistroPrevio: false,
    rechazoPrevio: false,
    reason: 'emitida por error',
  });
  return [stored(first), stored(bare, first.row), stored(cancelled, bare.row)];
}

test('form 1 writes these rows with their parts exactly as it always has', () => {
  const digests = rows().map((row) =>
    createHash('sha256')
      .update(signedRecordForms.rebuild(1, row, PARTS))
      .digest('hex'),
  );
  expect(digests).toEqual([
    'cd54581225afd7931c7445cb3e1eb2d4071a6650baa65ed70d182710360650d2',
    'fbf475d8c0d4bb1258d8c4c7746fd0f6aab98b66dcdc77f2a2a51a9937df9c88',
    'ac13b80b6f37ad74a4413dc12ff6375b0c714fb3a5407f6f7bdbec317c9783cc',
  ]);
});

test("a record's parts read out of its bytes write it again; a form this version does not know is refused", () => {
  const [row] = rows();
  const signed = signedRecordForms.rebuild(1, row, { ...PARTS, signatureId: '0193a000-0000-7000-8000-0000000000ff' });
  const parts = signedRecordForms.partsOf(row.id, signed);
  expect(parts).toEqual({ ...PARTS, signatureId: '0193a000-0000-7000-8000-0000000000ff' });
  expect(signedRecordForms.rebuild(1, row, parts!)).toBe(signed);
  expect(signedRecordForms.partsOf(row.id, signed.replace('xmldsig-0193a000', 'firma-0193a000'))).toBeUndefined();
  expect(() => signedRecordForms.rebuild(2, row, PARTS)).toThrow(/form 2, which this version cannot write/);
});
