import { lineTree, systemTree } from '../testing/raw-records';
import type { XmlTree } from '../testing/xml-tree';
import { TAXPAYER, type CaseSession, type CodeCase } from './case-session';

// Record codes for values that do not have the form the schema gives them: the record is rejected alone.

const alta = (patch: (s: CaseSession) => XmlTree) => (s: CaseSession) => s.send([{ alta: s.alta(patch(s)) }]);
const anulacion = (patch: XmlTree) => (s: CaseSession) => s.send([{ anulacion: s.anulacion(patch) }]);
const line = (patch: XmlTree) => ({ Desglose: { DetalleDesglose: [lineTree(patch)] } });
const recipient = (person: XmlTree) => ({ Destinatarios: { IDDestinatario: [{ NombreRazon: 'CLIENTE', ...person }] } });
const system = (patch: XmlTree) => ({ SistemaInformatico: { ...systemTree(), ...patch } });
const otherSystem = (other: XmlTree) => {
  const { NIF: _nif, ...rest } = systemTree();
  const [name, ...after] = Object.entries(rest);
  return { SistemaInformatico: Object.fromEntries([name, ['IDOtro', other], ...after]) as XmlTree };
};
const previous = (patch: XmlTree) => (s: CaseSession) => ({
  Encadenamiento: {
    RegistroAnterior: {
      IDEmisorFactura: TAXPAYER,
      NumSerieFactura: 'ANTERIOR',
      FechaExpedicionFactura: s.day(0),
      Huella: 'A'.repeat(64),
      ...patch,
    },
  },
});
const generator = (by: string, person: XmlTree) => ({ GeneradoPor: by, Generador: { NombreRazon: 'GENERADOR', ...person } });

const form = (code: number, why: string, run: CodeCase['run']): CodeCase => ({ code, how: 'rule', why, shape: 'line', run });

export const RECORD_FORM_CASES: CodeCase[] = [
  form(
    1100,
    'DescripcionOperacion over 500 characters',
    alta(() => ({ DescripcionOperacion: 'x'.repeat(501) })),
  ),
  form(
    1101,
    'IDOtro CodigoPais not in the list',
    alta(() => recipient({ IDOtro: { CodigoPais: 'ZZ', IDType: '03', ID: 'X1234567' } })),
  ),
  form(
    1102,
    'IDOtro IDType not in the list',
    alta(() => recipient({ IDOtro: { CodigoPais: 'FR', IDType: '09', ID: 'X1234567' } })),
  ),
  form(
    1103,
    'IDOtro ID empty',
    alta(() => recipient({ IDOtro: { CodigoPais: 'FR', IDType: '03', ID: '' } })),
  ),
  form(1104, 'NumSerieFactura over 60 characters', (s) => s.send([{ alta: s.alta({}, { number: `${s.tag}-${'9'.repeat(60)}` }) }])),
  form(
    1105,
    'FechaExpedicionFactura 31-02',
    alta(() => ({ IDFactura: { IDEmisorFactura: TAXPAYER, NumSerieFactura: 'F-1105', FechaExpedicionFactura: '31-02-2025' } })),
  ),
  form(
    1106,
    'TipoFactura F9',
    alta(() => ({ TipoFactura: 'F9' })),
  ),
  form(
    1107,
    'TipoRectificativa X',
    alta(() => ({ TipoFactura: 'R1', TipoRectificativa: 'X' })),
  ),
  form(
    1120,
    'IDEmisorFactura in lower case',
    alta(() => ({ IDFactura: { IDEmisorFactura: '89890001k', NumSerieFactura: 'F-1120', FechaExpedicionFactura: '01-11-2024' } })),
  ),
  form(
    1123,
    'recipient NIF with a wrong check character',
    alta(() => recipient({ NIF: '89890001A' })),
  ),
  form(1130, 'NumSerieFactura outside ASCII 32-126', (s) => s.send([{ alta: s.alta({}, { number: `${s.tag}-AÑO` }) }])),
  form(1130, 'NumSerieFactura ending in a no-break space, which is not trimmed', (s) =>
    s.send([{ alta: s.alta({}, { number: `${s.tag}-1\u00a0` }) }]),
  ),
  form(
    1136,
    'FacturaSimplificadaArt7273 X',
    alta(() => ({ FacturaSimplificadaArt7273: 'X' })),
  ),
  form(
    1137,
    'Macrodato X',
    alta(() => ({ Macrodato: 'X' })),
  ),
  form(
    1145,
    'FechaOperacion 31-02',
    alta(() => ({ FechaOperacion: '31-02-2025' })),
  ),
  form(
    1151,
    'EmitidaPorTerceroODestinatario X',
    alta(() => ({ EmitidaPorTerceroODestinatario: 'X' })),
  ),
  form(
    1157,
    'Cupon X',
    alta(() => ({ Cupon: 'X' })),
  ),
  form(
    1171,
    'Subsanacion X',
    alta(() => ({ Subsanacion: 'X' })),
  ),
  form(
    1174,
    'RegistroAnterior FechaExpedicionFactura 31-02',
    alta((s) => previous({ FechaExpedicionFactura: '31-02-2025' })(s)),
  ),
  form(
    1175,
    'RegistroAnterior NumSerieFactura outside ASCII',
    alta((s) => previous({ NumSerieFactura: 'AÑO' })(s)),
  ),
  form(
    1176,
    'SistemaInformatico NIF with a wrong check character',
    alta(() => system({ NIF: '89890001A' })),
  ),
  form(
    1177,
    'IdSistemaInformatico in lower case',
    alta(() => system({ IdSistemaInformatico: 'f1' })),
  ),
  form(
    1178,
    'Tercero IDOtro IDType not in the list',
    alta(() => ({
      EmitidaPorTerceroODestinatario: 'T',
      Tercero: { NombreRazon: 'T', IDOtro: { CodigoPais: 'FR', IDType: '09', ID: 'X1' } },
    })),
  ),
  form(
    1179,
    'SistemaInformatico NombreRazon empty',
    alta(() => system({ NombreRazon: '' })),
  ),
  form(
    1180,
    'Encadenamiento with both PrimerRegistro and RegistroAnterior',
    alta((s) => ({ Encadenamiento: { PrimerRegistro: 'S', ...(previous({})(s).Encadenamiento as XmlTree) } })),
  ),
  form(
    1181,
    'CalificacionOperacion S9',
    alta(() => line({ CalificacionOperacion: 'S9' })),
  ),
  form(
    1182,
    'OperacionExenta E9',
    alta(() => line({ CalificacionOperacion: undefined, OperacionExenta: 'E9', TipoImpositivo: undefined, CuotaRepercutida: undefined })),
  ),
  form(
    1184,
    'FacturaSinIdentifDestinatarioArt61d X',
    alta(() => ({ FacturaSinIdentifDestinatarioArt61d: 'X' })),
  ),
  form(
    1195,
    'a line with neither CalificacionOperacion nor OperacionExenta',
    alta(() => line({ CalificacionOperacion: undefined })),
  ),
  form(
    1196,
    'a line with both CalificacionOperacion and OperacionExenta',
    alta(() => line({ OperacionExenta: 'E1' })),
  ),
  form(
    1212,
    'TipoUsoPosibleSoloVerifactu X',
    alta(() => system({ TipoUsoPosibleSoloVerifactu: 'X' })),
  ),
  form(
    1213,
    'TipoUsoPosibleMultiOT X',
    alta(() => system({ TipoUsoPosibleMultiOT: 'X' })),
  ),
  form(
    1218,
    'Impuesto 04',
    alta(() => line({ Impuesto: '04' })),
  ),
  form(
    1219,
    'IDEmisorFactura with a wrong check character',
    alta(() => ({ IDFactura: { IDEmisorFactura: '89890001A', NumSerieFactura: 'F-1219', FechaExpedicionFactura: '01-11-2024' } })),
  ),
  form(
    1220,
    'NombreSistemaInformatico empty',
    alta(() => system({ NombreSistemaInformatico: '' })),
  ),
  form(
    1221,
    'SistemaInformatico IDOtro IDType not in the list',
    alta(() => otherSystem({ CodigoPais: 'FR', IDType: '09', ID: 'FR1' })),
  ),
  form(
    1222,
    'SistemaInformatico IDOtro ID empty',
    alta(() => otherSystem({ CodigoPais: 'FR', IDType: '04', ID: '' })),
  ),
  form(
    1223,
    'SistemaInformatico with neither NIF nor IDOtro',
    alta(() => system({ NIF: undefined })),
  ),
  form(1225, 'GeneradoPor X', anulacion(generator('X', { NIF: 'A86018322' }))),
  form(
    1226,
    'IndicadorMultiplesOT X',
    alta(() => system({ IndicadorMultiplesOT: 'X' })),
  ),
  form(1228, 'Generador with neither NIF nor IDOtro', anulacion({ GeneradoPor: 'D', Generador: { NombreRazon: 'GENERADOR' } })),
  form(
    1231,
    'Generador IDOtro IDType not in the list',
    anulacion(generator('D', { IDOtro: { CodigoPais: 'FR', IDType: '09', ID: 'X1' } })),
  ),
  form(
    1239,
    'a recipient with both NIF and IDOtro',
    alta(() => recipient({ NIF: 'A86018322', IDOtro: { CodigoPais: 'FR', IDType: '03', ID: 'X1' } })),
  ),
  form(
    1244,
    'FechaHoraHusoGenRegistro with the offset as +0200',
    alta((s) => ({ FechaHoraHusoGenRegistro: `${s.day(0).split('-').reverse().join('-')}T10:00:00+0200` })),
  ),
  form(
    1246,
    'ClaveRegimen 12, not in the list',
    alta(() => line({ ClaveRegimen: '12' })),
  ),
  form(
    1247,
    'TipoHuella 02',
    alta(() => ({ TipoHuella: '02' })),
  ),
  form(
    1251,
    'IDVersion 9.9',
    alta(() => ({ IDVersion: '9.9' })),
  ),
  form(
    1253,
    'RefExterna over 60 characters',
    alta(() => ({ RefExterna: 'r'.repeat(61) })),
  ),
  form(1258, 'Generador NIF with a wrong check character', anulacion(generator('E', { NIF: '89890001A' }))),
  form(
    1262,
    'Huella of 63 characters',
    alta(() => ({ Huella: 'A'.repeat(63) })),
  ),
  form(
    1263,
    'TipoHuella of one character',
    alta(() => ({ TipoHuella: '1' })),
  ),
  form(
    1264,
    'PrimerRegistro of two characters',
    alta(() => ({ Encadenamiento: { PrimerRegistro: 'SS' } })),
  ),
  form(
    1265,
    'TipoFactura of one character',
    alta(() => ({ TipoFactura: 'F' })),
  ),
  form(
    1266,
    'CuotaTotal with 13 integer digits',
    alta(() => ({ CuotaTotal: '1234567890123.00' })),
  ),
  form(
    1267,
    'ImporteTotal with 13 integer digits',
    alta(() => ({ ImporteTotal: '1234567890123.00' })),
  ),
  form(
    1268,
    'FechaHoraHusoGenRegistro too short to hold a time',
    alta(() => ({ FechaHoraHusoGenRegistro: '2025-01-01T10:00' })),
  ),
  form(
    1269,
    'RegistroAnterior with an empty Huella',
    alta((s) => previous({ Huella: '' })(s)),
  ),
  form(1273, 'Generador IDOtro ID empty', anulacion(generator('D', { IDOtro: { CodigoPais: 'FR', IDType: '03', ID: '' } }))),
  form(
    1274,
    'PrimerRegistro N',
    alta(() => ({ Encadenamiento: { PrimerRegistro: 'N' } })),
  ),
  form(1275, 'RechazoPrevio of an anulación X', anulacion({ RechazoPrevio: 'X' })),
  form(1276, 'SinRegistroPrevio X', anulacion({ SinRegistroPrevio: 'X' })),
  form(1287, 'NumSerieFactura with an apostrophe (current rules)', (s) => s.send([{ alta: s.alta({}, { number: `${s.tag}'1` }) }])),
  form(
    1291,
    'RegistroAnterior Huella not alphanumeric (current rules)',
    alta((s) => previous({ Huella: `${'A'.repeat(63)}-` })(s)),
  ),
  form(
    1292,
    'Huella not alphanumeric (current rules)',
    alta(() => ({ Huella: `${'A'.repeat(63)}-` })),
  ),
];
