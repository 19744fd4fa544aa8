import type { InjectedFault } from '../faults/fault-types';
import { TAXPAYER, type CaseSession, type CodeCase } from './case-session';

// Codes only the authority can know (its census of names and powers, its billing agreements, its internal and technical errors, its service state), or that no rule of the
// current schema reaches: a test switches them on through the admin interface, for one taxpayer.

const injectThenSend = (fault: InjectedFault) => (s: CaseSession) => {
  s.t.sim.inject({ ...fault, nif: TAXPAYER, next: 1 });
  return s.send([{ alta: s.alta() }]);
};

const messageFault = (code: number, why: string): CodeCase => ({
  code,
  how: 'injection',
  why,
  shape: 'fault',
  run: injectThenSend({ kind: 'soapFault', code }),
});
const recordCode = (code: number, why: string): CodeCase => ({
  code,
  how: 'injection',
  why,
  shape: 'line',
  run: injectThenSend({ kind: 'recordCode', code }),
});

export const INJECTED_CASES: CodeCase[] = [
  messageFault(4110, 'technical error checking powers (answered inside HTTP 200)'),
  messageFault(4111, 'technical error creating the trámite (HTTP 200)'),
  messageFault(4118, 'technical error: address and input file differ (HTTP 200)'),
  messageFault(4123, 'Representante not in the census (the census of representatives)'),
  messageFault(4124, 'Representante name not the census’s'),
  messageFault(4128, 'technical error reading the table manager (HTTP 200)'),
  messageFault(4134, 'service not active'),
  messageFault(4139, 'service not enabled in production'),
  messageFault(4141, 'access to VERI*FACTU suspended'),
  messageFault(3500, 'database integrity error (HTTP 200)'),
  messageFault(3501, 'database error (HTTP 200)'),
  messageFault(3502, 'invoice of a payments/collections/property supply not found (SII services)'),
  messageFault(3503, 'invoice not the registered holder’s (SII services)'),
  recordCode(
    1210,
    'ImporteTotal off by more than 10.00 as a rejection: the current rules store it with 2005 (ruleSet previous gives 1210)',
  ),
  recordCode(1216, 'CuotaTotal off by more than 10.00 as a rejection: the current rules store it with 2006 (ruleSet previous gives 1216)'),
  recordCode(1128, 'billing agreement (NumRegistroAcuerdoFacturacion) the authority does not hold'),
  recordCode(1129, 'technical error reading the billing agreement (retry)'),
  recordCode(1187, 'Tercero without EmitidaPorTerceroODestinatario=T: 1155 and 1159 already cover every such record'),
  recordCode(1214, 'NumeroOTAlta, a field the current schema no longer has'),
  recordCode(1217, 'error identifying IDEmisorFactura (the census lookup)'),
  recordCode(1233, 'IDOtro in Spain that must be no censado: no block of the schema asks for that alone'),
  recordCode(1240, 'error in the IDEmisorFactura block (the census lookup)'),
  recordCode(1241, 'technical error reading the SistemaInformatico (retry)'),
  recordCode(1243, 'technical error computing the time zone (retry)'),
  recordCode(1256, 'technical error reading the issue date limit (retry)'),
  recordCode(1288, 'technical error validating the issue/operation date (retry)'),
];
