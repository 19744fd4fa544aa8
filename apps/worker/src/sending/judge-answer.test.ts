import type { RegistrationRecord } from '@vf/core';
import { buildRegFactuResponse, buildSoapFault, type ResponseLine, type SubmissionResponse } from '@vf/xml';
import { judgeAnswer, judgeClientFault, judgeLine, matchLines, type SentRecord } from './judge-answer';

function sent(n: number, attempt = 1): SentRecord {
  const record = { id: { issuerNif: '89890001K', invoiceNumber: `F-${n}`, invoiceDate: '01-03-2025' } } as RegistrationRecord;
  return { invoiceId: `inv-${n}`, record, attempt };
}

function line(n: number, patch: Partial<ResponseLine> = {}): ResponseLine {
  return {
    id: { issuerNif: '89890001K', invoiceNumber: `F-${n}`, invoiceDate: '01-03-2025' },
    operation: 'Alta',
    state: 'Correcto',
    ...patch,
  };
}

const answered = (lines: ResponseLine[], sendState: SubmissionResponse['sendState'] = 'Correcto') =>
  ({
    kind: 'http',
    status: 200,
    body: buildRegFactuResponse({
      header: { obligado: { name: 'CONTRIBUYENTE', nif: '89890001K' } },
      waitSeconds: 60,
      sendState,
      lines,
      csv: 'A-CSV',
    }),
  }) as const;

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
  const anulacion: SentRecord = {
    invoiceId: 'anu-1',
    record: { ...alta.record, kind: 'cancellation' } as unknown as SentRecord['record'],
    attempt: 1,
  };
  const lines = [line(1, { state: 'Incorrecto', errorCode: 3000 }), line(1, { operation: 'Anulacion' })];
  const matched = matchLines([alta, anulacion], lines);
  expect(matched.get('inv-1')?.operation).toBe('Alta');
  expect(matched.get('anu-1')).toMatchObject({ operation: 'Anulacion', state: 'Correcto' });
});

test('record states map to accepted / accepted_with_warnings / rejected with the codes and the CSV; a record without a line goes again', () => {
  expect(judgeLine(sent(1), line(1), 'A-CSV')).toMatchObject({ kind: 'settled', outcome: { status: 'accepted', csv: 'A-CSV' } });
  expect(
    judgeLine(sent(1), line(1, { state: 'AceptadoConErrores', errorCode: 2004, errorDescription: 'fuera de margen' }), 'A-CSV'),
  ).toMatchObject({
    kind: 'settled',
    outcome: { status: 'accepted_with_warnings', code: 2004, message: 'fuera de margen', csv: 'A-CSV' },
  });
  expect(judgeLine(sent(1), line(1, { state: 'Incorrecto', errorCode: 1108, errorDescription: 'NIF' }), undefined)).toMatchObject({
    kind: 'settled',
    outcome: { status: 'rejected', code: 1108, message: 'NIF', csv: null },
  });
  expect(judgeLine(sent(1), undefined, 'A-CSV')).toMatchObject({
    kind: 'again',
    reason: "the authority's answer had no line for this record",
  });
});

test('a 3000 is never settled from the line alone: the Consulta service must show whose record it is', () => {
  const dup = line(1, { state: 'Incorrecto', errorCode: 3000, duplicate: { requestId: '123', state: 'Correcta' } });
  expect(judgeLine(sent(1, 1), dup, undefined)).toEqual({ kind: 'ask', sent: sent(1, 1), code: 3000 });
  expect(judgeLine(sent(1, 2), dup, undefined)).toEqual({ kind: 'ask', sent: sent(1, 2), code: 3000 });
});

test('an EstadoRegistro this service does not know never throws: it is asked about through the Consulta service', () => {
  const odd = line(1, { state: 'EnProceso' as ResponseLine['state'], errorCode: 9999 });
  expect(judgeLine(sent(1), odd, undefined)).toEqual({ kind: 'ask', sent: sent(1), code: 9999, unknownState: 'EnProceso' });
});

test('a Client fault registers nothing, so no record is rejected: each is in error with the code, waiting for the user', () => {
  const records = [sent(1), sent(2)];
  for (const code of [4102, 4104, 4112]) {
    const outcomes = judgeClientFault(records, {
      kind: 'fault',
      faultCode: 'env:Client',
      side: 'client',
      code,
      message: `Codigo[${code}].texto`,
    });
    expect(outcomes.map((o) => [o.status, o.code, o.message, o.nextAttemptAt])).toEqual([
      ['error', code, `Codigo[${code}].texto`, null],
      ['error', code, `Codigo[${code}].texto`, null],
    ]);
  }
});

test('an exchange is judged as a whole: answered (its waiting time applies), refused by a Client fault, or unanswered', () => {
  const records = [sent(1), sent(2)];
  const ok = judgeAnswer(answered([line(1), line(2, { state: 'Incorrecto', errorCode: 3000 })]), records);
  expect(ok).toMatchObject({ exchange: 'answered', waitSeconds: 60, submission: { outcome: 'answered', csv: 'A-CSV' } });
  expect(ok.records.map((r) => r.kind)).toEqual(['settled', 'ask']);

  const fault = (side: 'client' | 'server') =>
    ({ kind: 'http', status: 500, body: buildSoapFault({ side, code: 4102, message: 'esquema' }) }) as const;
  expect(judgeAnswer(fault('client'), records)).toMatchObject({ exchange: 'refused', submission: { outcome: 'fault', faultCode: '4102' } });
  expect(judgeAnswer(fault('server'), records)).toMatchObject({ exchange: 'unanswered', records: [{ kind: 'again' }, { kind: 'again' }] });
  expect(judgeAnswer({ kind: 'no_answer', error: 'ECONNRESET' }, records)).toMatchObject({
    exchange: 'unanswered',
    submission: { outcome: 'transport_error', errorMessage: 'transport error: ECONNRESET' },
  });
  expect(judgeAnswer({ kind: 'http', status: 502, body: '<html>Bad gateway</html>' }, records)).toMatchObject({
    exchange: 'unanswered',
  });
});

test('an answer whose EstadoEnvio and EstadoRegistro this service does not know is read without throwing and judged per line', () => {
  const verdict = judgeAnswer(
    answered([line(1), line(2, { state: 'Pendiente' as ResponseLine['state'] })], 'EnRevision' as SubmissionResponse['sendState']),
    [sent(1), sent(2)],
  );
  expect(verdict.records[0]).toMatchObject({ kind: 'settled', outcome: { status: 'accepted' } });
  expect(verdict.records[1]).toEqual({ kind: 'ask', sent: sent(2), unknownState: 'Pendiente' });
});

test('what the catalogue retries goes again; 3001 and a code in no table are asked', () => {
  expect(judgeLine(sent(1), line(1, { state: 'Incorrecto', errorCode: 1129, errorDescription: 'Error técnico' }), undefined)).toMatchObject(
    {
      kind: 'again',
      code: 1129,
    },
  );
  expect(judgeLine(sent(1), line(1, { state: 'Incorrecto', errorCode: 3001, errorDescription: 'ya dado de baja' }), undefined)).toEqual({
    kind: 'ask',
    sent: sent(1),
    code: 3001,
    message: 'ya dado de baja',
  });
  expect(judgeLine(sent(1), line(1, { state: 'Incorrecto', errorCode: 1999 }), undefined)).toMatchObject({ kind: 'ask', code: 1999 });
  expect(judgeLine(sent(1), line(1, { state: 'Incorrecto' }), undefined)).toMatchObject({ kind: 'ask' });
});

test('a 2007 (PrimerRegistro where the authority already holds records) is registered with its warning, not held for the user', () => {
  const description = 'No debe informarse como primer registro';
  expect(judgeLine(sent(1), line(1, { state: 'AceptadoConErrores', errorCode: 2007, errorDescription: description }), 'C')).toEqual({
    kind: 'settled',
    outcome: {
      invoiceId: 'inv-1',
      csv: 'C',
      status: 'accepted_with_warnings',
      code: 2007,
      message: description,
      note: `accepted with errors: 2007 ${description}`,
    },
  });
});

test('faults as the catalogue says: retry codes go again from either side, 102 is asked first, 4141 stops the sender, a bare 500 is the certificate', () => {
  const records = [sent(1)];
  const fault = (side: 'client' | 'server', code: number, status = 500) =>
    ({ kind: 'http', status, body: buildSoapFault({ side, code, message: `Codigo[${code}]` }) }) as const;
  expect(judgeAnswer(fault('client', 4103, 200), records)).toMatchObject({ exchange: 'unanswered', records: [{ kind: 'again' }] });
  expect(judgeAnswer(fault('server', 3501, 200), records)).toMatchObject({ exchange: 'unanswered', records: [{ kind: 'again' }] });
  expect(judgeAnswer(fault('server', 102), records)).toMatchObject({
    exchange: 'unanswered',
    records: [{ kind: 'ask', unanswered: expect.any(String) }],
  });
  expect(judgeAnswer({ kind: 'no_answer', error: 'timeout' }, records).records).toMatchObject([{ kind: 'ask' }]);
  const suspended = judgeAnswer(fault('client', 4141), records);
  expect(suspended).toMatchObject({
    exchange: 'refused',
    stop: { code: 4141 },
    records: [{ kind: 'settled', outcome: { status: 'error', code: 4141 } }],
  });
  expect(judgeAnswer(fault('client', 4112), records).stop).toBeUndefined();
  expect(judgeAnswer({ kind: 'http', status: 500, body: '' }, records)).toMatchObject({
    exchange: 'refused',
    records: [{ kind: 'settled', outcome: { status: 'error', cause: 'certificate_refused', nextAttemptAt: null } }],
  });
  // An HTML page comes from in front of the service: nothing was processed, nothing to ask.
  expect(judgeAnswer({ kind: 'http', status: 503, body: '<html>503</html>' }, records).records).toMatchObject([{ kind: 'again' }]);
});
