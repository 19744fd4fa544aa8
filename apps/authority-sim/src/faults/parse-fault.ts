import Joi from 'joi';
import { tableEntry, UNLISTED_FAULTS } from '../rules/rule-set';
import { ENVIRONMENTS } from '../simulator-types';
import { FAULT_KINDS, OPERATIONS, type FaultKind, type InjectedFault } from './fault-types';
import type { FaultFilter } from './fault-book';

function levelOf(code: number) {
  return (tableEntry('current', code) ?? tableEntry('previous', code))?.level;
}

/** Which codes each kind can carry, by the level the authority's table gives them. */
const CODE_CHECKS: Partial<Record<FaultKind, { accepts(code: number): boolean; what: string }>> = {
  soapFault: {
    accepts: (c) => c in UNLISTED_FAULTS || levelOf(c) === 'message' || levelOf(c) === 'record',
    what: 'a code of the whole-message or record section of the table (header and consulta errors refuse the message), or 102, 401, 20009',
  },
  storedThenFailed: { accepts: (c) => c in UNLISTED_FAULTS || levelOf(c) === 'message', what: 'a whole-message code, or 102, 401, 20009' },
  recordCode: {
    accepts: (c) => levelOf(c) === 'record' || levelOf(c) === 'accepted',
    what: 'a code of the record or accepted-with-errors section of the table',
  },
};

const fault = Joi.object({
  kind: Joi.string()
    .valid(...FAULT_KINDS)
    .required(),
  nif: Joi.string().max(20),
  certificateNif: Joi.string().max(20),
  environment: Joi.string().valid(...ENVIRONMENTS),
  operation: Joi.string().valid(...OPERATIONS),
  invoiceNumber: Joi.string().max(60),
  next: Joi.number().integer().min(1),
  probability: Joi.number().min(0).max(1),
  ms: Joi.when('kind', { is: 'hang', then: Joi.number().integer().min(0).max(3_600_000), otherwise: Joi.forbidden() }),
  code: Joi.when('kind', {
    is: Joi.valid('soapFault', 'recordCode'),
    then: Joi.number().integer().required(),
    otherwise: Joi.when('kind', { is: 'storedThenFailed', then: Joi.number().integer(), otherwise: Joi.forbidden() }),
  }),
  httpStatus: Joi.when('kind', { is: 'soapFault', then: Joi.valid(200, 500), otherwise: Joi.forbidden() }),
}).oxor('next', 'probability');

/** One fault or a list of them, from JSON (POST /__sim/faults) or a test; throws with a readable message. */
export function parseFaults(input: unknown): InjectedFault[] {
  const list = Array.isArray(input) ? input : [input];
  if (list.length === 0) throw new Error('expected a fault or a non-empty list of faults');
  return list.map((item, i) => {
    const { value, error } = fault.validate(item, { abortEarly: true, convert: false });
    if (error) throw new Error(`fault ${i}: ${error.message}`);
    const check = CODE_CHECKS[value.kind as FaultKind];
    if (check && value.code !== undefined && !check.accepts(value.code)) {
      throw new Error(`fault ${i}: ${value.kind} code ${value.code} is not ${check.what}`);
    }
    return value as InjectedFault;
  });
}

const filter = Joi.object({
  id: Joi.number().integer().min(1),
  kind: Joi.string().valid(...FAULT_KINDS),
  nif: Joi.string().max(20),
});

/** `{id?, kind?, nif?}`: which faults POST /__sim/faults/clear removes (all without fields). */
export function parseFaultFilter(input: unknown): FaultFilter {
  const { value, error } = filter.validate(input ?? {}, { convert: false });
  if (error) throw new Error(error.message);
  return value as FaultFilter;
}
