import type { RegistrationRecord } from '@vf/core';
import { f2Record } from '@vf/xml/testing';
import { admissibleError } from './admissible-rules';
import { blockingError } from './record-rules';
import { freshRecord } from './testing/sim-records';

const NIF = '89890001K';
const ctx = { headerNif: NIF, unknownNifs: new Set(['12345678Z']), now: new Date() };
const admissibleCtx = { now: ctx.now, toleranceSeconds: 240, chainExists: false };

function record(overrides: Partial<RegistrationRecord>): RegistrationRecord {
  return freshRecord(NIF, 'R-0001', { overrides, now: ctx.now });
}

describe('blockingError (record rejected)', () => {
  it('accepts a correct F1', () => {
    expect(blockingError(record({}), ctx)).toBeUndefined();
  });

  it.each<[string, Partial<RegistrationRecord>, number]>([
    ['issuer other than the header NIF', { id: { issuerNif: '89890002E', invoiceNumber: 'X-1', invoiceDate: '01-01-2025' } }, 1108],
    ['forbidden character in NumSerieFactura', { id: { issuerNif: NIF, invoiceNumber: "A'1", invoiceDate: '01-01-2025' } }, 1130],
    ['issue date before 28-10-2024', { id: { issuerNif: NIF, invoiceNumber: 'A-1', invoiceDate: '27-10-2024' } }, 1152],
    ['issue date in the future', { id: { issuerNif: NIF, invoiceNumber: 'A-1', invoiceDate: '01-01-2999' } }, 1112],
    ['impossible issue date', { id: { issuerNif: NIF, invoiceNumber: 'A-1', invoiceDate: '31-02-2025' } }, 1105],
    ['R1 without TipoRectificativa', { invoiceType: 'R1' }, 1114],
    ['F1 with TipoRectificativa', { rectificationType: 'I' }, 1115],
    ['R1 by substitution without ImporteRectificacion', { invoiceType: 'R1', rectificationType: 'S' }, 1118],
    ['F1 without recipients', { recipients: [] }, 1189],
    ['recipient NIF not in the census', { recipients: [{ name: 'X', nif: '12345678Z' }] }, 1193],
    ['recipient NIF equal to the issuer', { recipients: [{ name: 'X', nif: NIF }] }, 1193],
    ['IDOtro 07 outside Spain', { recipients: [{ name: 'X', country: 'FR', idType: '07', id: '12345678Z' }] }, 1126],
    [
      'S1 quota off by more than 10 euros',
      {
        lines: [{ tax: '01', regime: '01', qualification: 'S1', rate: '21.00', base: '100.00', taxAmount: '31.01' }],
        totalTax: '31.01',
        total: '131.01',
      },
      1142,
    ],
    ['S1 without rate', { lines: [{ tax: '01', regime: '01', qualification: 'S1', base: '100.00', taxAmount: '21.00' }] }, 1208],
    [
      'IVA rate not in the list',
      { lines: [{ tax: '01', regime: '01', qualification: 'S1', rate: '16.00', base: '100.00', taxAmount: '16.00' }] },
      1124,
    ],
    ['exempt line with a quota', { lines: [{ tax: '01', regime: '01', exemption: 'E1', base: '100.00', taxAmount: '0.00' }] }, 1238],
    [
      'IVA line without ClaveRegimen',
      { lines: [{ tax: '01', qualification: 'S1', rate: '21.00', base: '100.00', taxAmount: '21.00' }] },
      1245,
    ],
    ['FechaHoraHusoGenRegistro without a zone', { generatedAt: '2025-01-01T10:00:00' }, 1244],
  ])('rejects %s', (_label, overrides, code) => {
    expect(blockingError(record(overrides), ctx)).toBe(code);
  });

  it('rejects an F2 with recipients and an F2 over 3,000 + 10 euros', () => {
    const base = { ...f2Record(), id: record({}).id, generatedAt: record({}).generatedAt };
    expect(blockingError({ ...base, recipients: [{ name: 'X', nif: '89890002E' }] }, ctx)).toBe(1190);
    const big = { tax: '01' as const, regime: '01', qualification: 'S1' as const, rate: '21.00', base: '2500.00', taxAmount: '525.00' };
    expect(blockingError({ ...base, lines: [big], totalTax: '525.00', total: '3025.00' }, ctx)).toBe(1150);
  });

  it('does not check the quota of a rectification by differences', () => {
    const line = { tax: '01' as const, regime: '01', qualification: 'S1' as const, rate: '21.00', base: '-100.00', taxAmount: '-5.00' };
    const r = record({ invoiceType: 'R4', rectificationType: 'I', lines: [line], totalTax: '-5.00', total: '-105.00' });
    expect(blockingError(r, ctx)).toBeUndefined();
  });
});

describe('admissibleError (registered with errors)', () => {
  it('finds nothing in a correct record', () => {
    expect(admissibleError(record({}), admissibleCtx)).toBeUndefined();
  });

  it('flags a wrong huella (2000), totals (2005/2006), IDOtro 07 (2001), first record of an existing chain (2007)', () => {
    expect(admissibleError({ ...record({}), hash: 'F'.repeat(64) }, admissibleCtx)?.code).toBe(2000);
    expect(admissibleError(record({ total: '200.00' }), admissibleCtx)?.code).toBe(2005);
    expect(admissibleError(record({ totalTax: '50.00', total: '200.00' }), admissibleCtx)?.code).toBe(2005);
    expect(admissibleError(record({ totalTax: '50.00' }), admissibleCtx)?.code).toBe(2006);
    expect(
      admissibleError(record({ recipients: [{ name: 'X', country: 'ES', idType: '07', id: '12345678Z' }] }), admissibleCtx)?.code,
    ).toBe(2001);
    expect(admissibleError(record({}), { ...admissibleCtx, chainExists: true })?.code).toBe(2007);
  });

  it('allows 10 euros of difference in the totals', () => {
    expect(admissibleError(record({ total: '186.00' }), admissibleCtx)).toBeUndefined();
    expect(admissibleError(record({ total: '186.01' }), admissibleCtx)?.code).toBe(2005);
  });

  it('flags a generation time outside the tolerance (2004) with the margin in the text', () => {
    const old = freshRecord(NIF, 'R-0002', { now: new Date(ctx.now.getTime() - 241_000) });
    expect(admissibleError(old, admissibleCtx)).toEqual({ code: 2004, detail: ' 240 segundos' });
    expect(admissibleError(old, { ...admissibleCtx, toleranceSeconds: 300 })).toBeUndefined();
  });
});
