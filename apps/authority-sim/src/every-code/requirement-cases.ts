import { TAXPAYER, type CaseSession, type CodeCase } from './case-session';
import { regFactuXml, type RawHeader } from '../testing/raw-records';

// The header codes of RequerimientoSOAP, the service that takes a NO VERI*FACTU system's kept records on the
// authority's request: what only that endpoint checks (the codes for requerimiento data sent to VerifactuSOAP,
// 4126 and 4130, and the form of its values, 4131 and 4133, are message cases).

const ISSUED = 'REQ2026A';

const toRequirementService = (s: CaseSession, header: RawHeader) => {
  s.t.sim.issueRequirement(TAXPAYER, ISSUED);
  return s.post(regFactuXml(header, [{ alta: s.alta() }]), { url: s.t.sim.requirementUrl });
};

export const REQUIREMENT_CASES: CodeCase[] = [
  {
    code: 4122,
    how: 'rule',
    why: 'RefRequerimiento the authority did not issue to the taxpayer (RequerimientoSOAP)',
    shape: 'fault',
    run: (s) =>
      toRequirementService(s, { nif: TAXPAYER, extra: { RemisionRequerimiento: { RefRequerimiento: 'REQOTHER', FinRequerimiento: 'S' } } }),
  },
  {
    code: 4125,
    how: 'rule',
    why: 'a message to RequerimientoSOAP without RemisionRequerimiento',
    shape: 'fault',
    run: (s) => toRequirementService(s, { nif: TAXPAYER }),
  },
  {
    code: 4127,
    how: 'rule',
    why: 'RemisionVoluntaria on RequerimientoSOAP',
    shape: 'fault',
    run: (s) =>
      toRequirementService(s, {
        nif: TAXPAYER,
        extra: { RemisionVoluntaria: { Incidencia: 'S' }, RemisionRequerimiento: { RefRequerimiento: ISSUED, FinRequerimiento: 'S' } },
      }),
  },
  {
    code: 4129,
    how: 'rule',
    why: 'FinRequerimiento missing on RequerimientoSOAP',
    shape: 'fault',
    run: (s) => toRequirementService(s, { nif: TAXPAYER, extra: { RemisionRequerimiento: { RefRequerimiento: ISSUED } } }),
  },
];
