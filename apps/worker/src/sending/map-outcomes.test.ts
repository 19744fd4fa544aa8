import type { RegistrationRecord } from '@vf/core';
import type { ResponseLine } from '@vf/xml';
import { judgeClientFault, judgeLine, judgeRetry, matchLines, type SentRecord } from './map-outcomes';

function sent(n: number, attempt = 1): SentRecord {
  const record = { id: { issuerNif: '89890001K', invoiceNumber: `F-${n}`, invoiceDate: '01-03-2025' } } as RegistrationRecord;
  return { invoiceId: `inv-${n}`, record, attempt };
}

function line(n: number, patch: Partial<ResponseLine> = {}): ResponseLine {
  return { id: { issuerNif: '89890001K', invoiceNumber: `F-${n}`, invoiceDate: '01-03-2025' }, operation: 'Alta', state: 'Correcto', ...patch };
}

test('answer lines are matched by RefExterna when echoed, otherwise by IDFactura', () => {
  const records = [sent(1), sent(2), sent(3)];
  const lines = [line(2), line(99, { externalRef: 'inv-1' }), line(3, { operation: 'Anulacion' })];
  const matched = matchLines(records, lines);
  expect(matched.get('inv-1')?.id.invoiceNumber).toBe('F-99');
  expect(matched.get('inv-2')?.id.invoiceNumber).toBe('F-2');
  expect(matched.has('inv-3')).toBe(false);
});

test('record states map to accepted / accepted_with_warnings / rejected with the codes and the CSV', () => {
  expect(judgeLine(sent(1), line(1), 'A-CSV')).toMatchObject({ kind: 'final', outcome: { status: 'accepted', csv: 'A-CSV' } });
  expect(judgeLine(sent(1), line(1, { state: 'AceptadoConErrores', errorCode: 2004, errorDescription: 'fuera de margen' }), 'A-CSV')).toMatchObject({
    kind: 'final',
    outcome: { status: 'accepted_with_warnings', code: 2004, message: 'fuera de margen', csv: 'A-CSV' },
  });
  expect(judgeLine(sent(1), line(1, { state: 'Incorrecto', errorCode: 1108, errorDescription: 'NIF' }), undefined)).toMatchObject({
    kind: 'final',
    outcome: { status: 'rejected', code: 1108, message: 'NIF', csv: null },
  });
  expect(judgeLine(sent(1), undefined, 'A-CSV')).toEqual({ kind: 'unanswered' });
});

test('3000 on a first send is a real duplicate; on a resend it is our own earlier registration', () => {
  const dup = line(1, { state: 'Incorrecto', errorCode: 3000, duplicate: { requestId: '123', state: 'AceptadaConErrores', errorCode: 2004, errorDescription: 'tarde' } });
  expect(judgeLine(sent(1, 1), dup, undefined)).toMatchObject({ kind: 'final', outcome: { status: 'rejected', code: 3000 } });
  expect(judgeLine(sent(1, 2), dup, undefined)).toMatchObject({ kind: 'final', outcome: { status: 'accepted_with_warnings', code: 2004, message: 'tarde' } });
  const correct = line(1, { state: 'Incorrecto', errorCode: 3000, duplicate: { requestId: '123', state: 'Correcta' } });
  expect(judgeLine(sent(1, 3), correct, undefined)).toMatchObject({ kind: 'final', outcome: { status: 'accepted' } });
  const bare = line(1, { state: 'Incorrecto', errorCode: 3000 });
  expect(judgeLine(sent(1, 2), bare, undefined)).toEqual({ kind: 'ask_authority' });
});

test('a Client fault rejects every record with its code, except 4112 which is an error of the certificate', () => {
  const records = [sent(1), sent(2)];
  const schema = judgeClientFault(records, { kind: 'fault', faultCode: 'env:Client', side: 'client', code: 4102, message: 'Codigo[4102].El XML no cumple el esquema' });
  expect(schema.map((o) => [o.status, o.code])).toEqual([
    ['rejected', 4102],
    ['rejected', 4102],
  ]);
  const holder = judgeClientFault(records, { kind: 'fault', faultCode: 'env:Client', side: 'client', code: 4112, message: 'Codigo[4112].El titular del certificado…' });
  expect(holder.map((o) => [o.status, o.code, o.message])).toEqual([
    ['error', 4112, 'Codigo[4112].El titular del certificado…'],
    ['error', 4112, 'Codigo[4112].El titular del certificado…'],
  ]);
});

test('a failed send requeues each record with its next attempt, until the attempts are used up', () => {
  const at = new Date('2025-03-01T10:00:00Z');
  const outcomes = judgeRetry(
    [
      { sent: sent(1, 1), reason: 'transport error: ECONNRESET' },
      { sent: sent(2, 8), reason: 'transport error: ECONNRESET' },
    ],
    8,
    at,
  );
  expect(outcomes[0]).toMatchObject({ status: 'queued', lastError: 'transport error: ECONNRESET; retry 2 of 8 at 2025-03-01T10:00:00.000Z' });
  expect(outcomes[1]).toMatchObject({ status: 'error', lastError: 'transport error: ECONNRESET; gave up after 8 attempts' });
});
