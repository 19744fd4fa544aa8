import type { RegistrationRecord } from '@vf/core';
import { buildConsultaResponse, parseConsultaRequest, type ConsultaRecord } from '@vf/xml';
import { consultaRequestFor, heldRecordIn, judgeHeldRecord } from './judge-held-record';
import type { SentRecord } from './judge-answer';

const record = {
  id: { issuerNif: '89890001K', invoiceNumber: 'F-1', invoiceDate: '15-03-2025' },
  hash: 'A'.repeat(64),
} as RegistrationRecord;
const mine: SentRecord = { invoiceId: 'inv-1', record, attempt: 2 };
const ask = { kind: 'ask', sent: mine, code: 3000 } as const;

test('the Consulta question names the invoice as its issuer, in the period of its date', () => {
  const { query } = parseConsultaRequest(consultaRequestFor(mine, { name: 'CONTRIBUYENTE', nif: '89890001K' }));
  expect(query).toMatchObject({
    obligado: { nif: '89890001K' },
    period: { year: '2025', month: '03' },
    invoiceNumber: 'F-1',
    invoiceDate: '15-03-2025',
  });
});

test('the held record is ours only with our huella: then its state settles ours; another huella rejects ours with 3000', () => {
  const held = { id: record.id, data: { hash: record.hash }, lastModified: 'x' };
  expect(judgeHeldRecord(ask, { ...held, state: 'Correcto' }, 'A-CSV')).toMatchObject({
    kind: 'settled',
    outcome: { status: 'accepted', csv: 'A-CSV' },
  });
  expect(judgeHeldRecord(ask, { ...held, state: 'Anulado' })).toMatchObject({ kind: 'settled', outcome: { status: 'accepted' } });
  expect(judgeHeldRecord(ask, { ...held, state: 'AceptadoConErrores', errorCode: 2004 })).toMatchObject({
    kind: 'settled',
    outcome: { status: 'accepted_with_warnings', code: 2004 },
  });
  const other = judgeHeldRecord(ask, { ...held, data: { hash: 'B'.repeat(64) }, state: 'Correcto' });
  expect(other).toMatchObject({ kind: 'settled', outcome: { status: 'rejected', code: 3000, cause: 'number_taken' } });
  expect(judgeHeldRecord(ask, { ...held, data: {}, state: 'Correcto' })).toMatchObject({
    kind: 'settled',
    outcome: { status: 'rejected' },
  });
});

test('after a lost answer (or a stored-then-failed fault), a record the authority holds is settled, never sent again', () => {
  const lost = { kind: 'ask', sent: mine, unanswered: 'server fault (env:Server): Codigo[102]' } as const;
  const held = { id: record.id, data: { hash: record.hash }, lastModified: 'x' };
  expect(judgeHeldRecord(lost, { ...held, state: 'AceptadoConErrores', errorCode: 2000 })).toMatchObject({
    kind: 'settled',
    outcome: { status: 'accepted_with_warnings', code: 2000 },
  });
  // Not held, or only an earlier record of the invoice is: ours was not stored, and goes again.
  expect(judgeHeldRecord(lost, 'none')).toMatchObject({ kind: 'again', reason: expect.stringMatching(/^server fault.*holds no record/) });
  expect(judgeHeldRecord(lost, { ...held, data: { hash: 'B'.repeat(64) }, state: 'Correcto' })).toMatchObject({ kind: 'again' });
  expect(judgeHeldRecord(lost, undefined)).toMatchObject({ kind: 'again' });
});

test('a 3001 or a code in no table is settled by what is held: ours, or refused with the code (never number_taken)', () => {
  const held = { id: record.id, data: { hash: record.hash }, lastModified: 'x' };
  const cancelled = { kind: 'ask', sent: mine, code: 3001, message: 'El registro de facturación ya ha sido dado de baja.' } as const;
  expect(judgeHeldRecord(cancelled, { ...held, state: 'Correcto' })).toMatchObject({ kind: 'settled', outcome: { status: 'accepted' } });
  const other = judgeHeldRecord(cancelled, { ...held, data: { hash: 'B'.repeat(64) }, state: 'Correcto' });
  expect(other).toMatchObject({ kind: 'settled', outcome: { status: 'rejected', code: 3001, message: cancelled.message } });
  expect(other.kind === 'settled' && other.outcome.cause).toBeFalsy();
  const unknown = { kind: 'ask', sent: mine, code: 1999, message: 'Nuevo error' } as const;
  expect(judgeHeldRecord(unknown, 'none')).toMatchObject({ kind: 'settled', outcome: { status: 'rejected', code: 1999 } });
  expect(judgeHeldRecord(unknown, { ...held, state: 'Correcto' })).toMatchObject({ kind: 'settled', outcome: { status: 'accepted' } });
});

test('nothing held, or a held state this service does not know, settles nothing: the record goes again later', () => {
  const held = { id: record.id, data: { hash: record.hash }, lastModified: 'x' };
  expect(judgeHeldRecord(ask, undefined)).toMatchObject({ kind: 'again', reason: expect.stringContaining('did not answer') });
  expect(judgeHeldRecord(ask, 'none')).toMatchObject({ kind: 'again', reason: expect.stringContaining('holds no record') });
  expect(judgeHeldRecord(ask, { ...held, state: 'Bloqueado' as ConsultaRecord['state'] })).toMatchObject({ kind: 'again' });
  expect(judgeHeldRecord({ kind: 'ask', sent: mine, unknownState: 'Pendiente' }, undefined)).toMatchObject({
    kind: 'again',
    unknownState: 'Pendiente',
  });
});

test('the held record is found in a Consulta answer by its IDFactura; an answer without it holds none; no answer or an unreadable one says nothing', () => {
  const body = buildConsultaResponse({
    obligado: { name: 'CONTRIBUYENTE', nif: '89890001K' },
    period: { year: '2025', month: '03' },
    hasMore: false,
    records: [{ id: record.id, data: { hash: record.hash }, lastModified: '2025-03-15T10:00:00+01:00', state: 'Correcto' }],
  });
  expect(heldRecordIn({ kind: 'http', status: 200, body }, mine)).toMatchObject({
    state: 'Correcto',
    data: { hash: record.hash },
  });
  expect(
    heldRecordIn({ kind: 'http', status: 200, body }, { ...mine, record: { ...record, id: { ...record.id, invoiceNumber: 'F-2' } } }),
  ).toBe('none');
  expect(heldRecordIn({ kind: 'http', status: 500, body: 'oops' }, mine)).toBeUndefined();
  expect(heldRecordIn(undefined, mine)).toBeUndefined();
});
