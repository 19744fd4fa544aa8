import { buildConsultaResponse, buildRegFactuResponse, buildSoapFault } from '@vf/xml';
import { readConsultaAnswer, readRegFactuAnswer } from './soap-transport';

const obligado = { name: 'CONTRIBUYENTE', nif: '89890001K' };
const http = (status: number, body: string) => ({ kind: 'http', status, body }) as const;

test('a RegFactu answer is read with its status and text, whatever the HTTP status of a fault', () => {
  const body = buildRegFactuResponse({ header: { obligado }, waitSeconds: 60, sendState: 'Correcto', lines: [], csv: 'A-CSV' });
  expect(readRegFactuAnswer(http(200, body))).toEqual({
    kind: 'reply',
    httpStatus: 200,
    responseXml: body,
    reply: expect.objectContaining({ kind: 'response', sendState: 'Correcto', csv: 'A-CSV', waitSeconds: 60 }),
  });
  const fault = buildSoapFault({ side: 'server', code: 4141, message: 'Codigo[4141].Acceso suspendido' });
  expect(readRegFactuAnswer(http(500, fault))).toEqual({
    kind: 'fault',
    httpStatus: 500,
    responseXml: fault,
    fault: expect.objectContaining({ side: 'server', code: 4141 }),
  });
});

test('no answer, an empty HTTP 500 and a page that is not SOAP are told apart', () => {
  expect(readRegFactuAnswer({ kind: 'no_answer', error: 'ECONNREFUSED' })).toEqual({ kind: 'no_answer', error: 'ECONNREFUSED' });
  expect(readRegFactuAnswer(http(500, ' \n'))).toMatchObject({ kind: 'certificate_refused', httpStatus: 500 });
  expect(readRegFactuAnswer(http(502, '<html>Bad gateway</html>'))).toMatchObject({ kind: 'unreadable', httpStatus: 502 });
  expect(readConsultaAnswer(http(500, ''))).toMatchObject({ kind: 'certificate_refused' });
});

test("a Consulta answer is read with the operation's own parser: a RegFactu answer there is unreadable", () => {
  const body = buildConsultaResponse({ obligado, period: { year: '2025', month: '03' }, hasMore: false, records: [] });
  expect(readConsultaAnswer(http(200, body))).toMatchObject({ kind: 'reply', reply: { kind: 'consulta', records: [] } });
  const regFactu = buildRegFactuResponse({ header: { obligado }, waitSeconds: 60, sendState: 'Correcto', lines: [] });
  expect(readConsultaAnswer(http(200, regFactu))).toMatchObject({ kind: 'unreadable' });
});
