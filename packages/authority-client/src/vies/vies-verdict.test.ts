import { readViesAnswer } from './vies-verdict';
import { readViesVatNumber } from './vies-vat-number';

const http = (status: number, body: unknown) => ({
  kind: 'http' as const,
  status,
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

test('a valid number keeps the consultation number and the published name; an invalid one is invalid', () => {
  expect(
    readViesAnswer(http(200, { valid: true, userError: 'VALID', requestIdentifier: 'WAPI1', name: 'ACME GMBH', address: 'X' })),
  ).toEqual({ verdict: { result: 'valid', detail: 'identified', requestIdentifier: 'WAPI1', traderName: 'ACME GMBH' }, again: false });
  expect(readViesAnswer(http(200, { valid: false, userError: 'INVALID', requestIdentifier: '', name: '---' }))).toEqual({
    verdict: { result: 'invalid', detail: 'not_identified' },
    again: false,
  });
});

test('valid:false with a member state down is unknown, never invalid, and is asked again', () => {
  for (const code of ['MS_UNAVAILABLE', 'TIMEOUT']) {
    expect(readViesAnswer(http(200, { valid: false, userError: code, name: '---' }))).toEqual({
      verdict: { result: 'unknown', detail: 'not_processed', faultCode: code },
      again: true,
    });
  }
  for (const code of ['SERVICE_UNAVAILABLE', 'MS_MAX_CONCURRENT_REQ', 'GLOBAL_MAX_CONCURRENT_REQ']) {
    expect(readViesAnswer(http(500, { actionSucceed: false, errorWrappers: [{ error: code }] }))).toEqual({
      verdict: { result: 'unknown', detail: 'not_processed', faultCode: code },
      again: true,
    });
  }
});

test('a malformed number is invalid; a refused requester is unknown and not asked again; no answer is asked again', () => {
  expect(readViesAnswer(http(400, { actionSucceed: false, errorWrappers: [{ error: 'INVALID_INPUT' }] }))).toEqual({
    verdict: { result: 'invalid', detail: 'not_identified', faultCode: 'INVALID_INPUT' },
    again: false,
  });
  expect(readViesAnswer(http(400, { errorWrappers: [{ error: 'INVALID_REQUESTER_INFO' }] })).again).toBe(false);
  expect(readViesAnswer(http(502, '<html>Bad gateway</html>'))).toEqual({
    verdict: { result: 'unknown', detail: 'not_processed' },
    again: true,
  });
  expect(readViesAnswer({ kind: 'no_answer', error: 'ECONNRESET' }).again).toBe(true);
});

test('reads EL for Greece (and GR as EL), XI for Northern Ireland, and refuses GB', () => {
  expect(readViesVatNumber('de 123.456-789')).toEqual({ countryCode: 'DE', vatNumber: '123456789' });
  expect(readViesVatNumber('GR094259216')).toEqual({ countryCode: 'EL', vatNumber: '094259216' });
  expect(readViesVatNumber('XI123456789')).toEqual({ countryCode: 'XI', vatNumber: '123456789' });
  expect(readViesVatNumber('GB123456789')).toMatchObject({ refused: expect.stringContaining('since 2021') });
  expect(readViesVatNumber('US123456789')).toMatchObject({ refused: expect.stringContaining('not a VIES member state') });
  expect(readViesVatNumber('123')).toHaveProperty('refused');
});
