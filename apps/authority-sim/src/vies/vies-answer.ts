import { VIES_COUNTRY_CODES } from '@vf/core';

/**
 * What VIES's test service answers for each of its numbers (any country): 100 valid, 200 invalid, the others one
 * fault each. The stand-in answers every other number of acceptable form as valid, so that a local deployment can
 * check its customers' numbers.
 */
export const VIES_TEST_NUMBERS: Readonly<Record<string, string>> = {
  '201': 'INVALID_INPUT',
  '202': 'INVALID_REQUESTER_INFO',
  '300': 'SERVICE_UNAVAILABLE',
  '301': 'MS_UNAVAILABLE',
  '302': 'TIMEOUT',
  '400': 'VAT_BLOCKED',
  '401': 'IP_BLOCKED',
  '500': 'GLOBAL_MAX_CONCURRENT_REQ',
  '501': 'GLOBAL_MAX_CONCURRENT_REQ_TIME',
  '600': 'MS_MAX_CONCURRENT_REQ',
  '601': 'MS_MAX_CONCURRENT_REQ_TIME',
};

export interface ViesQuestion {
  countryCode?: unknown;
  vatNumber?: unknown;
  requesterMemberStateCode?: unknown;
  requesterNumber?: unknown;
}

export type ViesReply = { status: number; body: object };

// The REST API reports a member state's outage two ways: `valid:false` with `userError` on a 200, or an error list.
const AS_USER_ERROR = new Set(['MS_UNAVAILABLE', 'TIMEOUT', 'VAT_BLOCKED', 'IP_BLOCKED']);
const STATUS_OF: Readonly<Record<string, number>> = { INVALID_INPUT: 400, INVALID_REQUESTER_INFO: 400, SERVICE_UNAVAILABLE: 500 };

const errorReply = (error: string, status = 200): ViesReply => ({
  status,
  body: { actionSucceed: false, errorWrappers: [{ error, message: null }] },
});

/** The answer of `POST /check-vat-number` for one question; `requestIdentifier` only when the requester is given. */
export function answerVies(q: ViesQuestion, now: Date, nextIdentifier: () => string): ViesReply {
  const country = typeof q.countryCode === 'string' ? q.countryCode : '';
  const number = typeof q.vatNumber === 'string' ? q.vatNumber.replace(/^[A-Z]{2}/, '') : '';
  if (!VIES_COUNTRY_CODES.has(country) || !/^[0-9A-Za-z+*.]{2,12}$/.test(number)) return errorReply('INVALID_INPUT', 400);
  const withRequester = typeof q.requesterMemberStateCode === 'string' && typeof q.requesterNumber === 'string';
  if (withRequester && !VIES_COUNTRY_CODES.has(q.requesterMemberStateCode as string)) return errorReply('INVALID_REQUESTER_INFO', 400);
  const fault = VIES_TEST_NUMBERS[number];
  const base = { countryCode: country, vatNumber: number, requestDate: now.toISOString() };
  if (fault && AS_USER_ERROR.has(fault))
    return { status: 200, body: { ...base, valid: false, userError: fault, name: '---', address: '---' } };
  if (fault) return errorReply(fault, STATUS_OF[fault] ?? 200);
  const valid = number !== '200';
  return {
    status: 200,
    body: {
      ...base,
      valid,
      userError: valid ? 'VALID' : 'INVALID',
      requestIdentifier: withRequester ? nextIdentifier() : '',
      name: valid ? 'EMPRESA DE PRUEBAS' : '---',
      address: valid ? 'CALLE MAYOR 1, MADRID' : '---',
    },
  };
}
