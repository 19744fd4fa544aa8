import { lineTree } from '../testing/raw-records';
import type { XmlTree } from '../testing/xml-tree';
import type { CaseSession, CodeCase } from './case-session';

// Record codes of the rules on each DetalleDesglose: regimes, qualifications, exemptions, quotas, IVA rates and
// recargo de equivalencia by date.

const NO_RATE = { TipoImpositivo: undefined, CuotaRepercutida: undefined };
const exempt = (code: string, patch: XmlTree = {}) => ({ CalificacionOperacion: undefined, OperacionExenta: code, ...NO_RATE, ...patch });
const rate = (percent: string, quota: string) => ({ TipoImpositivo: percent, CuotaRepercutida: quota });
const surcharge = (percent: string, quota: string) => ({ TipoRecargoEquivalencia: percent, CuotaRecargoEquivalencia: quota });

/** An alta whose one line is lineTree(patch), dated `operation` days from today (FechaOperacion) or at a fixed date. */
function withLine(patch: XmlTree, operation?: string | number, more: XmlTree = {}) {
  return (s: CaseSession) => {
    const date = typeof operation === 'number' ? s.day(operation) : operation;
    return s.send([
      { alta: s.alta({ ...(date ? { FechaOperacion: date } : {}), Desglose: { DetalleDesglose: [lineTree(patch)] }, ...more }) },
    ]);
  };
}

const lineCase = (code: number, why: string, run: CodeCase['run']): CodeCase => ({ code, how: 'rule', why, shape: 'line', run });

export const LINE_CASES: CodeCase[] = [
  lineCase(1124, 'IVA rate 17 %', withLine(rate('17', '17.00'))),
  lineCase(1127, 'recargo 3 %', withLine({ ClaveRegimen: '18', ...surcharge('3', '3.00') })),
  lineCase(1132, 'IVA rate 16 % for an operation after 2012', withLine(rate('16', '16.00'))),
  lineCase(1135, 'recargo 4 % for an operation after 2012', withLine({ ClaveRegimen: '18', ...surcharge('4', '4.00') })),
  lineCase(
    1140,
    'CuotaRepercutida and BaseImponibleACoste of opposite signs',
    withLine({ ClaveRegimen: '06', BaseImponibleACoste: '-50.00' }),
  ),
  lineCase(1142, 'CuotaRepercutida 10.01 off base × rate', withLine(rate('21', '31.01'))),
  lineCase(1143, 'CuotaRepercutida and base of opposite signs', withLine(rate('21', '-21.00'))),
  lineCase(
    1144,
    'CuotaRepercutida off BaseImponibleACoste × rate',
    withLine({ ClaveRegimen: '06', BaseImponibleACoste: '50.00', ...rate('21', '30.00') }),
  ),
  lineCase(1160, '5 % with recargo 1', withLine({ ...rate('5', '5.00'), ...surcharge('1', '1.00') }, '15-09-2024')),
  lineCase(1162, '21 % with recargo 1.4', withLine(surcharge('1.4', '1.40'))),
  lineCase(1163, '10 % with recargo 5.2', withLine({ ...rate('10', '10.00'), ...surcharge('5.2', '5.20') })),
  lineCase(1164, '4 % with recargo 1', withLine({ ...rate('4', '4.00'), ...surcharge('1', '1.00') })),
  lineCase(1165, '0 % with recargo 0 after September 2024', withLine({ ...rate('0', '0'), ...surcharge('0', '0') })),
  lineCase(1166, '2 % with recargo 0.5', withLine({ ...rate('2', '2.00'), ...surcharge('0.5', '0.50') }, '15-11-2024')),
  lineCase(
    1167,
    '5 % with recargo 0.5 outside the second half of 2022',
    withLine({ ...rate('5', '5.00'), ...surcharge('0.5', '0.50') }, '15-09-2024'),
  ),
  lineCase(
    1168,
    '5 % with recargo 0.62 outside 2023 to September 2024',
    withLine({ ...rate('5', '5.00'), ...surcharge('0.62', '0.62') }, '01-08-2022'),
  ),
  lineCase(1169, '7.5 % with recargo 0.5', withLine({ ...rate('7.5', '7.50'), ...surcharge('0.5', '0.50') }, '15-11-2024')),
  lineCase(1170, '0 % with recargo 0.26 before October 2024', withLine({ ...rate('0', '0'), ...surcharge('0.26', '0.26') }, '15-09-2024')),
  lineCase(1182, 'exemption E7 (IGIC only) with IVA', withLine(exempt('E7'))),
  lineCase(1194, 'IVA 5 % outside July 2022 to September 2024', withLine(rate('5', '5.00'))),
  lineCase(
    1197,
    'S2 on an F2',
    withLine({ CalificacionOperacion: 'S2', ...rate('0', '0') }, undefined, { TipoFactura: 'F2', Destinatarios: undefined }),
  ),
  lineCase(1198, 'S2 with a rate', withLine({ CalificacionOperacion: 'S2' })),
  lineCase(1199, 'ClaveRegimen 01 with exemption E2', withLine(exempt('E2'))),
  lineCase(1200, 'ClaveRegimen 03 with S2', withLine({ ClaveRegimen: '03', CalificacionOperacion: 'S2', ...rate('0', '0') })),
  lineCase(1201, 'ClaveRegimen 04 with S1', withLine({ ClaveRegimen: '04' })),
  lineCase(1202, 'ClaveRegimen 06 without BaseImponibleACoste', withLine({ ClaveRegimen: '06' })),
  lineCase(1203, 'ClaveRegimen 07 with N1', withLine({ ClaveRegimen: '07', CalificacionOperacion: 'N1', ...NO_RATE })),
  lineCase(1205, 'ClaveRegimen 10 with S1', withLine({ ClaveRegimen: '10' })),
  lineCase(1206, 'ClaveRegimen 11 at 10 %', withLine({ ClaveRegimen: '11', ...rate('10', '10.00') })),
  lineCase(
    1207,
    'IGIC N1 with a quota',
    withLine({ Impuesto: '03', CalificacionOperacion: 'N1', TipoImpositivo: undefined, CuotaRepercutida: '5.00' }),
  ),
  lineCase(1208, 'S1 without TipoImpositivo', withLine({ TipoImpositivo: undefined })),
  lineCase(
    1209,
    'ClaveRegimen 06, S1 without TipoImpositivo',
    withLine({ ClaveRegimen: '06', BaseImponibleACoste: '50.00', TipoImpositivo: undefined, CuotaRepercutida: '10.50' }),
  ),
  lineCase(1235, 'IVA 2 % outside the last quarter of 2024', withLine(rate('2', '2.00'))),
  lineCase(1236, 'IVA 7.5 % outside the last quarter of 2024', withLine(rate('7.5', '7.50'))),
  lineCase(1237, 'IVA N1 with TipoImpositivo', withLine({ CalificacionOperacion: 'N1', CuotaRepercutida: undefined })),
  lineCase(1238, 'exempt line with TipoImpositivo', withLine(exempt('E1', { TipoImpositivo: '21' }))),
  lineCase(1245, 'IVA line without ClaveRegimen', withLine({ ClaveRegimen: undefined })),
  lineCase(1246, 'ClaveRegimen 21, an IGIC key, with IVA', withLine({ ClaveRegimen: '21' })),
  lineCase(1252, 'ClaveRegimen 08 with S1', withLine({ ClaveRegimen: '08' })),
  lineCase(1257, 'BaseImponibleACoste with ClaveRegimen 01', withLine({ BaseImponibleACoste: '50.00' })),
  lineCase(1260, 'ClaveRegimen with Impuesto 05 (Otros)', withLine({ Impuesto: '05' })),
  lineCase(1277, '0 % with recargo 1', withLine({ ...rate('0', '0'), ...surcharge('1', '1.00') })),
  lineCase(1281, 'recargo on an S2 line', withLine({ CalificacionOperacion: 'S2', ...rate('0', '0'), ...surcharge('0', '0') })),
  lineCase(1284, 'TipoRecargoEquivalencia without CuotaRecargoEquivalencia', withLine({ TipoRecargoEquivalencia: '5.2' })),
  lineCase(1286, 'ClaveRegimen 02 (export) with S1 (current rules)', withLine({ ClaveRegimen: '02' })),
  lineCase(1289, 'E5 with IVA to a recipient identified by NIF (current rules)', withLine(exempt('E5'))),
  lineCase(1293, 'IGIC ClaveRegimen 20 with S1 (current rules)', withLine({ Impuesto: '03', ClaveRegimen: '20' })),
];
