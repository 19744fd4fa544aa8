import type { RegistrationRecord } from '@vf/core';
import { buildRegFactuResponse, parseRegFactuReply, type ConsultaRecord, type ResponseLine, type SubmissionResponse } from '@vf/xml';
import { judgeHeldRecord } from './ask-authority';
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

test("an anulación takes its invoice's Anulacion line, never the alta's of the same IDFactura", () => {
  const alta = sent(1);
  const anulacion: SentRecord = { invoiceId: 'anu-1', record: { ...alta.record, kind: 'cancellation' } as unknown as SentRecord['record'], attempt: 1 };
  const lines = [line(1, { state: 'Incorrecto', errorCode: 3000 }), line(1, { operation: 'Anulacion' })];
  const matched = matchLines([alta, anulacion], lines);
  expect(matched.get('inv-1')?.operation).toBe('Alta');
  expect(matched.get('anu-1')).toMatchObject({ operation: 'Anulacion', state: 'Correcto' });
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

test('a 3000 is never settled from the line alone: the Consulta service must show whose record it is', () => {
  const dup = line(1, { state: 'Incorrecto', errorCode: 3000, duplicate: { requestId: '123', state: 'Correcta' } });
  expect(judgeLine(sent(1, 1), dup, undefined)).toEqual({ kind: 'ask_authority', code: 3000 });
  expect(judgeLine(sent(1, 2), dup, undefined)).toEqual({ kind: 'ask_authority', code: 3000 });
});

test('an EstadoRegistro this service does not know never throws: it is resolved through the Consulta service', () => {
  const odd = line(1, { state: 'EnProceso' as ResponseLine['state'], errorCode: 9999 });
  expect(judgeLine(sent(1), odd, undefined)).toEqual({ kind: 'ask_authority', code: 9999, unknownState: 'EnProceso' });
  const [outcome] = judgeRetry([{ sent: sent(1), reason: 'unknown', code: 9999, unknownState: 'EnProceso' }], {
    retryAt: new Date('2025-03-01T10:05:00Z'),
    failingSince: new Date('2025-03-01T10:00:00Z'),
    now: new Date('2025-03-01T10:00:00Z'),
    errorAfterSeconds: 86_400,
  });
  expect(outcome).toMatchObject({ status: 'error', cause: 'unknown_answer', code: 9999, message: 'EstadoRegistro EnProceso', nextAttemptAt: new Date('2025-03-01T10:05:00Z') });
});

test('a Client fault registers nothing, so no record is rejected: each is in error with the code, waiting for the user', () => {
  const records = [sent(1), sent(2)];
  for (const code of [4102, 4104, 4112]) {
    const outcomes = judgeClientFault(records, { kind: 'fault', faultCode: 'env:Client', side: 'client', code, message: `Codigo[${code}].texto` });
    expect(outcomes.map((o) => [o.status, o.code, o.message, o.nextAttemptAt])).toEqual([
      ['error', code, `Codigo[${code}].texto`, null],
      ['error', code, `Codigo[${code}].texto`, null],
    ]);
  }
});

test('a failed send is retried without limit: queued at first, error (still retried) once failing longer than the threshold', () => {
  const retryAt = new Date('2025-03-02T10:00:00Z');
  const failingSince = new Date('2025-03-01T09:00:00Z');
  const plan = { retryAt, failingSince, errorAfterSeconds: 86_400 };
  const early = judgeRetry([{ sent: sent(1, 50), reason: 'transport error: ECONNRESET' }], { ...plan, now: new Date('2025-03-01T10:00:00Z') });
  expect(early[0]).toMatchObject({ status: 'queued', nextAttemptAt: retryAt, lastError: 'transport error: ECONNRESET; next attempt at 2025-03-02T10:00:00.000Z' });
  const late = judgeRetry([{ sent: sent(1, 500), reason: 'transport error: ECONNRESET' }], { ...plan, now: new Date('2025-03-02T09:00:00Z') });
  expect(late[0]).toMatchObject({ status: 'error', cause: 'outage', nextAttemptAt: retryAt });
  expect(late[0].lastError).toMatch(/failing since 2025-03-01T09:00:00.000Z; next attempt at 2025-03-02T10:00:00.000Z$/);
});

test('a held record in a state this service does not know settles nothing: the record goes again later', () => {
  const mine = { ...sent(1), record: { ...sent(1).record, hash: 'A'.repeat(64) } };
  const held = { id: mine.record.id, data: { hash: 'A'.repeat(64) }, lastModified: 'x' };
  expect(judgeHeldRecord(mine, { ...held, state: 'Bloqueado' as ConsultaRecord['state'] })).toBeUndefined();
  expect(judgeHeldRecord(mine, { ...held, state: 'Correcto' })).toMatchObject({ status: 'accepted' });
  expect(judgeHeldRecord(mine, { ...held, data: {}, state: 'Correcto' })).toMatchObject({ status: 'rejected', cause: 'number_taken' });
});

test('an answer whose EstadoEnvio and EstadoRegistro this service does not know is read without throwing and judged per line', () => {
  const xml = buildRegFactuResponse({
    header: { obligado: { name: 'CONTRIBUYENTE', nif: '89890001K' } },
    waitSeconds: 60,
    sendState: 'EnRevision' as SubmissionResponse['sendState'],
    lines: [line(1), line(2, { state: 'Pendiente' as ResponseLine['state'] })],
  });
  const reply = parseRegFactuReply(xml);
  if (reply.kind !== 'response') throw new Error('expected a response');
  const matched = matchLines([sent(1), sent(2)], reply.lines);
  expect(judgeLine(sent(1), matched.get('inv-1'), undefined)).toMatchObject({ kind: 'final', outcome: { status: 'accepted' } });
  expect(judgeLine(sent(2), matched.get('inv-2'), undefined)).toEqual({ kind: 'ask_authority', unknownState: 'Pendiente' });
});
