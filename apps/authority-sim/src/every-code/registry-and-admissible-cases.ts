import { chainedTo, lineTree } from '../testing/raw-records';
import { SECOND_COLLABORATOR, TAXPAYER, type CaseSession, type CodeCase } from './case-session';

// What the authority holds decides 3000-3004 (its operations matrix); the accepted-with-errors section (2000-2009)
// stores the record with its code. And the codes only the previous rule set gives.

const registered = async (s: CaseSession) => {
  const alta = s.alta();
  await s.send([{ alta }]);
  return alta;
};

export const REGISTRY_CASES: CodeCase[] = [
  {
    code: 3000,
    how: 'rule',
    why: 'an alta of an invoice already held (RegistroDuplicado shows what is held)',
    shape: 'line',
    run: async (s) => {
      const alta = await registered(s);
      return s.send([{ alta }]);
    },
  },
  {
    code: 3001,
    how: 'rule',
    why: 'an anulación sin registro previo of an invoice already cancelled',
    shape: 'line',
    run: async (s) => {
      const alta = await registered(s);
      const cancellation = s.anulacion({ Encadenamiento: chainedTo(alta) });
      await s.send([{ anulacion: cancellation }]);
      return s.send([{ anulacion: s.anulacion({ SinRegistroPrevio: 'S', Encadenamiento: chainedTo(cancellation) }) }]);
    },
  },
  {
    code: 3002,
    how: 'rule',
    why: 'an anulación of an invoice not held',
    shape: 'line',
    run: (s) => s.send([{ anulacion: s.anulacion() }]),
  },
  {
    code: 3003,
    how: 'rule',
    why: 'a subsanación by another colaborador social than the one who presented the invoice',
    shape: 'line',
    run: async (s) => {
      const alta = await registered(s);
      const correction = s.alta({ Subsanacion: 'S', DescripcionOperacion: 'Corregida', Encadenamiento: chainedTo(alta) });
      return s.send([{ alta: correction }], { client: s.certificate(SECOND_COLLABORATOR) });
    },
  },
  {
    code: 3004,
    how: 'rule',
    why: 'an anulación of an invoice entered through the web form (admin: form-invoices)',
    shape: 'line',
    run: (s) => {
      s.t.sim.registerViaForm('sandbox', { issuerNif: TAXPAYER, invoiceNumber: s.tag, invoiceDate: s.day(0) });
      return s.send([{ anulacion: s.anulacion() }]);
    },
  },
];

const accepted = (code: number, why: string, run: CodeCase['run']): CodeCase => ({ code, how: 'rule', why, shape: 'line', run });

export const ADMISSIBLE_CASES: CodeCase[] = [
  accepted(2000, 'a wrong huella', (s) => s.send([{ alta: s.alta({ Huella: 'A'.repeat(64) }) }])),
  accepted(2001, 'a recipient no censado (IDType 07)', (s) =>
    s.send([
      {
        alta: s.alta({
          Destinatarios: { IDDestinatario: [{ NombreRazon: 'CLIENTE', IDOtro: { CodigoPais: 'ES', IDType: '07', ID: '12345678Z' } }] },
        }),
      },
    ]),
  ),
  accepted(2002, 'a previous huella of 3 characters', (s) =>
    s.send([
      {
        alta: s.alta({
          Encadenamiento: {
            RegistroAnterior: { IDEmisorFactura: TAXPAYER, NumSerieFactura: 'X', FechaExpedicionFactura: s.day(0), Huella: 'ABC' },
          },
        }),
      },
    ]),
  ),
  accepted(2003, 'a previous huella in lower case', (s) =>
    s.send([
      {
        alta: s.alta({
          Encadenamiento: {
            RegistroAnterior: { IDEmisorFactura: TAXPAYER, NumSerieFactura: 'X', FechaExpedicionFactura: s.day(0), Huella: 'a'.repeat(64) },
          },
        }),
      },
    ]),
  ),
  accepted(2004, 'FechaHoraHusoGenRegistro 10 minutes before the authority clock', (s) =>
    s.send([{ alta: s.alta({}, { now: new Date(s.now.getTime() - 600_000) }) }]),
  ),
  accepted(2005, 'ImporteTotal off by more than 10.00', (s) => s.send([{ alta: s.alta({ ImporteTotal: '200.00' }) }])),
  accepted(2006, 'CuotaTotal off by more than 10.00', (s) => s.send([{ alta: s.alta({ CuotaTotal: '50.00' }) }])),
  accepted(2007, 'PrimerRegistro=S when the installation already has records', (s) =>
    s.send([{ alta: s.alta({}, { number: `${s.tag}-1` }) }, { alta: s.alta({}, { number: `${s.tag}-2` }) }]),
  ),
  accepted(2008, 'a previous huella equal to the record’s own (current rules)', (s) => {
    const huella = 'B'.repeat(64);
    return s.send([
      {
        alta: s.alta({
          Huella: huella,
          Encadenamiento: {
            RegistroAnterior: { IDEmisorFactura: TAXPAYER, NumSerieFactura: 'X', FechaExpedicionFactura: s.day(0), Huella: huella },
          },
        }),
      },
    ]);
  }),
  accepted(2009, 'an IPSI line without ClaveRegimen (current rules, until 2026)', (s) =>
    s.send([
      {
        alta: s.alta({
          Desglose: {
            DetalleDesglose: [lineTree({ Impuesto: '02', ClaveRegimen: undefined, TipoImpositivo: '4', CuotaRepercutida: '4.00' })],
          },
          CuotaTotal: '4.00',
          ImporteTotal: '104.00',
        }),
      },
    ]),
  ),
];

/** Codes of the previous rule set: the simulator answers them once configured with ruleSet "previous". */
export const PREVIOUS_RULE_SET_CASES: CodeCase[] = [
  {
    code: 1210,
    how: 'rule',
    why: 'ImporteTotal off by more than 10.00 (previous rules: a rejection)',
    shape: 'line',
    ruleSet: 'previous',
    run: (s) => s.send([{ alta: s.alta({ ImporteTotal: '200.00' }) }]),
  },
  {
    code: 1216,
    how: 'rule',
    why: 'CuotaTotal off by more than 10.00 (previous rules: a rejection)',
    shape: 'line',
    ruleSet: 'previous',
    run: (s) => s.send([{ alta: s.alta({ CuotaTotal: '50.00' }) }]),
  },
  {
    code: 1278,
    how: 'rule',
    why: 'a previous huella equal to the record’s own (previous rules: a rejection, now 2008)',
    shape: 'line',
    ruleSet: 'previous',
    run: (s) => {
      const huella = 'B'.repeat(64);
      return s.send([
        {
          alta: s.alta({
            Huella: huella,
            Encadenamiento: {
              RegistroAnterior: { IDEmisorFactura: TAXPAYER, NumSerieFactura: 'X', FechaExpedicionFactura: s.day(0), Huella: huella },
            },
          }),
        },
      ]);
    },
  },
  {
    code: 1279,
    how: 'rule',
    why: 'recargo de equivalencia outside ClaveRegimen 18 (previous rules)',
    shape: 'line',
    ruleSet: 'previous',
    run: (s) =>
      s.send([
        {
          alta: s.alta({
            Desglose: { DetalleDesglose: [lineTree({ TipoRecargoEquivalencia: '5.2', CuotaRecargoEquivalencia: '5.20' })] },
            CuotaTotal: '26.20',
            ImporteTotal: '126.20',
          }),
        },
      ]),
  },
  {
    code: 1280,
    how: 'rule',
    why: 'ClaveRegimen 18 without recargo de equivalencia (previous rules)',
    shape: 'line',
    ruleSet: 'previous',
    run: (s) => s.send([{ alta: s.alta({ Desglose: { DetalleDesglose: [lineTree({ ClaveRegimen: '18' })] } }) }]),
  },
];
