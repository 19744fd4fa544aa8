import { lineTree, systemTree } from '../testing/raw-records';
import type { XmlTree } from '../testing/xml-tree';
import { TAXPAYER, UNKNOWN_ENTITY, UNKNOWN_PERSON, UNKNOWN_VAT_NUMBER, type CaseSession, type CodeCase } from './case-session';

// Record codes of the rules on what an alta or anulación means: dates, invoice types, third parties, recipients,
// the chain and who generated an anulación. The record is rejected (Incorrecto) and not stored.

type Patch = (s: CaseSession) => XmlTree;
const alta = (patch: Patch) => (s: CaseSession) => s.send([{ alta: s.alta(patch(s)) }]);
// SinRegistroPrevio=S: the authority holds nothing of the invoice, so only the content decides.
const anulacion = (patch: XmlTree) => (s: CaseSession) => s.send([{ anulacion: s.anulacion({ SinRegistroPrevio: 'S', ...patch }) }]);
const recipients = (...people: XmlTree[]) => ({ Destinatarios: { IDDestinatario: people.map((p) => ({ NombreRazon: 'CLIENTE', ...p })) } });
const other = (country: string | undefined, idType: string, id: string) => ({
  IDOtro: { ...(country ? { CodigoPais: country } : {}), IDType: idType, ID: id },
});
const invoiceRef = (nif = TAXPAYER) => ({ IDEmisorFactura: nif, NumSerieFactura: 'ORIGINAL', FechaExpedicionFactura: '01-11-2024' });
const third = (person: XmlTree) => ({ EmitidaPorTerceroODestinatario: 'T', Tercero: { NombreRazon: 'TERCERO', ...person } });
const generator = (by: string, person: XmlTree) => ({ GeneradoPor: by, Generador: { NombreRazon: 'GENERADOR', ...person } });
const deferred = (s: CaseSession) => ({ FechaOperacion: s.day(1), Desglose: { DetalleDesglose: [lineTree({ ClaveRegimen: '14' })] } });
const noRecipients = { Destinatarios: undefined };
const issuedOn = (s: CaseSession, days: number) => ({
  IDFactura: { IDEmisorFactura: TAXPAYER, NumSerieFactura: s.tag, FechaExpedicionFactura: s.day(days) },
});

const content = (code: number, why: string, run: CodeCase['run']): CodeCase => ({ code, how: 'rule', why, shape: 'line', run });

export const RECORD_CONTENT_CASES: CodeCase[] = [
  content(
    1108,
    'IDEmisorFactura other than the header NIF',
    alta(() => ({ IDFactura: { ...invoiceRef('89890002E'), NumSerieFactura: 'F-1108' } })),
  ),
  content(
    1109,
    'Tercero NIF not in the census',
    alta(() => third({ NIF: UNKNOWN_ENTITY })),
  ),
  content(
    1110,
    'SistemaInformatico NIF not in the census',
    alta(() => ({ SistemaInformatico: { ...systemTree(), NIF: UNKNOWN_ENTITY } })),
  ),
  content(
    1111,
    'IDOtro without CodigoPais (IDType other than 02)',
    alta(() => recipients(other(undefined, '03', 'X1234567'))),
  ),
  content(
    1112,
    'FechaExpedicionFactura tomorrow',
    alta((s) => issuedOn(s, 1)),
  ),
  content(
    1114,
    'R1 without TipoRectificativa',
    alta(() => ({ TipoFactura: 'R1' })),
  ),
  content(
    1115,
    'F1 with TipoRectificativa',
    alta(() => ({ TipoRectificativa: 'I' })),
  ),
  content(
    1116,
    'FacturasSustituidas on an F1',
    alta(() => ({ FacturasSustituidas: { IDFacturaSustituida: [invoiceRef()] } })),
  ),
  content(
    1117,
    'FacturasRectificadas on an F1',
    alta(() => ({ FacturasRectificadas: { IDFacturaRectificada: [invoiceRef()] } })),
  ),
  content(
    1118,
    'R1 by substitution without ImporteRectificacion',
    alta(() => ({ TipoFactura: 'R1', TipoRectificativa: 'S' })),
  ),
  content(
    1119,
    'R1 by differences with ImporteRectificacion',
    alta(() => ({ TipoFactura: 'R1', TipoRectificativa: 'I', ImporteRectificacion: { BaseRectificada: '0', CuotaRectificada: '0' } })),
  ),
  content(
    1121,
    'NIF-IVA not in VIES (the census)',
    alta(() => recipients(other('FR', '02', UNKNOWN_VAT_NUMBER))),
  ),
  content(
    1122,
    'NIF-IVA whose prefix is not its CodigoPais',
    alta(() => recipients(other('FR', '02', 'DE123456789'))),
  ),
  content(
    1125,
    'FechaOperacion after the end of next year',
    alta((s) => ({ FechaOperacion: s.day(3 * 366) })),
  ),
  content(
    1126,
    'IDType 07 outside Spain',
    alta(() => recipients(other('FR', '07', '12345678Z'))),
  ),
  content(
    1131,
    'IDType 07 with a legal person NIF',
    alta(() => recipients(other('ES', '07', 'A86018322'))),
  ),
  content(
    1133,
    'FechaExpedicionFactura over 20 years ago',
    alta((s) => issuedOn(s, -21 * 366)),
  ),
  content(
    1134,
    'FechaOperacion over 20 years ago',
    alta((s) => ({ FechaOperacion: s.day(-21 * 366) })),
  ),
  content(
    1138,
    'Macrodato S under 100,000,000',
    alta(() => ({ Macrodato: 'S' })),
  ),
  content(
    1139,
    'ImporteTotal of 100,000,000 without Macrodato',
    alta(() => ({ ImporteTotal: '100000000.00' })),
  ),
  content(
    1146,
    'FechaOperacion after the issue date without ClaveRegimen 14/15',
    alta((s) => ({ ...issuedOn(s, -1), FechaOperacion: s.day(0) })),
  ),
  content(
    1147,
    'ClaveRegimen 14 without FechaOperacion',
    alta(() => ({ Desglose: { DetalleDesglose: [lineTree({ ClaveRegimen: '14' })] } })),
  ),
  content(
    1148,
    'ClaveRegimen 14 on an F2',
    alta((s) => ({ ...deferred(s), TipoFactura: 'F2', ...noRecipients })),
  ),
  content(1149, 'ClaveRegimen 14 for a recipient that is no public body', alta(deferred)),
  content(
    1150,
    'F2 over 3,000 + 10.00',
    alta(() => ({
      TipoFactura: 'F2',
      ...noRecipients,
      Desglose: { DetalleDesglose: [lineTree({ BaseImponibleOimporteNoSujeto: '2800.00', CuotaRepercutida: '588.00' })] },
      CuotaTotal: '588.00',
      ImporteTotal: '3388.00',
    })),
  ),
  content(
    1152,
    'FechaExpedicionFactura before 28-10-2024',
    alta(() => ({ IDFactura: { ...invoiceRef(), NumSerieFactura: 'F-1152', FechaExpedicionFactura: '27-10-2024' } })),
  ),
  content(
    1153,
    'RechazoPrevio X without Subsanacion',
    alta(() => ({ RechazoPrevio: 'X' })),
  ),
  content(
    1154,
    'rectified invoice issuer not in the census',
    alta(() => ({
      TipoFactura: 'R1',
      TipoRectificativa: 'I',
      FacturasRectificadas: { IDFacturaRectificada: [invoiceRef(UNKNOWN_ENTITY)] },
    })),
  ),
  content(
    1155,
    'Tercero without EmitidaPorTerceroODestinatario',
    alta(() => ({ Tercero: { NombreRazon: 'TERCERO', NIF: 'A86018322' } })),
  ),
  content(
    1156,
    'NIF-IVA recipient on an F2',
    alta(() => ({ TipoFactura: 'F2', ...recipients(other('FR', '02', 'FR12345678902')) })),
  ),
  content(
    1157,
    'Cupon S on an F1',
    alta(() => ({ Cupon: 'S' })),
  ),
  content(
    1158,
    'EmitidaPorTerceroODestinatario D without Destinatarios',
    alta(() => ({ EmitidaPorTerceroODestinatario: 'D', ...noRecipients })),
  ),
  content(
    1159,
    'Tercero with EmitidaPorTerceroODestinatario D',
    alta(() => ({ EmitidaPorTerceroODestinatario: 'D', Tercero: { NombreRazon: 'TERCERO', NIF: 'A86018322' } })),
  ),
  content(
    1161,
    'RechazoPrevio S without Subsanacion',
    alta(() => ({ RechazoPrevio: 'S' })),
  ),
  content(
    1173,
    'FechaOperacion in the future without ClaveRegimen 14/15',
    alta((s) => ({ FechaOperacion: s.day(1) })),
  ),
  content(
    1180,
    'RegistroAnterior of another taxpayer',
    alta((s) => ({
      Encadenamiento: {
        RegistroAnterior: { IDEmisorFactura: '89890002E', NumSerieFactura: 'X', FechaExpedicionFactura: s.day(0), Huella: 'A'.repeat(64) },
      },
    })),
  ),
  content(
    1183,
    'FacturaSimplificadaArt7273 S on an F2',
    alta(() => ({ TipoFactura: 'F2', ...noRecipients, FacturaSimplificadaArt7273: 'S' })),
  ),
  content(
    1185,
    'FacturaSinIdentifDestinatarioArt61d S on an F1',
    alta(() => ({ FacturaSinIdentifDestinatarioArt61d: 'S' })),
  ),
  content(
    1186,
    'EmitidaPorTerceroODestinatario T without Tercero',
    alta(() => ({ EmitidaPorTerceroODestinatario: 'T' })),
  ),
  content(
    1188,
    'Tercero NIF equal to the taxpayer',
    alta(() => third({ NIF: TAXPAYER })),
  ),
  content(
    1189,
    'F1 without Destinatarios',
    alta(() => noRecipients),
  ),
  content(
    1190,
    'F2 with Destinatarios',
    alta(() => ({ TipoFactura: 'F2' })),
  ),
  content(
    1191,
    'R3 to a passport',
    alta(() => ({ TipoFactura: 'R3', TipoRectificativa: 'I', ...recipients(other('FR', '03', 'X1234567')) })),
  ),
  content(
    1192,
    'R2 to a passport',
    alta(() => ({ TipoFactura: 'R2', TipoRectificativa: 'I', ...recipients(other('FR', '03', 'X1234567')) })),
  ),
  content(
    1193,
    'recipient NIF not in the census',
    alta(() => recipients({ NIF: UNKNOWN_PERSON })),
  ),
  content(
    1211,
    'Tercero identified as no censado (07)',
    alta(() => third(other('ES', '07', '12345678Z'))),
  ),
  content(1224, 'GeneradoPor without Generador', anulacion({ GeneradoPor: 'E' })),
  content(1227, 'GeneradoPor E with a Generador without NIF', anulacion(generator('E', other('FR', '03', 'X1')))),
  content(1229, 'GeneradoPor T with a Generador no censado (07)', anulacion(generator('T', other('ES', '07', '12345678Z')))),
  content(1230, 'GeneradoPor D, Generador in Spain neither passport nor 07', anulacion(generator('D', other('ES', '04', 'X1')))),
  content(
    1232,
    'Tercero in Spain without a passport',
    alta(() => third(other('ES', '04', 'X1'))),
  ),
  content(
    1234,
    'SistemaInformatico IDOtro in Spain neither passport nor 07',
    alta(() => {
      const { NIF: _nif, NombreRazon, ...rest } = systemTree();
      return { SistemaInformatico: { NombreRazon, IDOtro: { CodigoPais: 'ES', IDType: '04', ID: 'X1' }, ...rest } };
    }),
  ),
  content(
    1254,
    'NIF-IVA XI for an operation before 2021',
    alta(() => ({ FechaOperacion: '15-12-2020', ...recipients(other(undefined, '02', 'XI123456789')) })),
  ),
  content(
    1255,
    'NIF-IVA GB for an operation after January 2021',
    alta(() => recipients(other(undefined, '02', 'GB123456789'))),
  ),
  content(1259, 'Generador NIF not in the census', anulacion(generator('E', { NIF: UNKNOWN_ENTITY }))),
  content(
    1283,
    'recipient natural person without NombreRazon',
    alta(() => ({ Destinatarios: { IDDestinatario: [{ NombreRazon: '', NIF: '12345678Z' }] } })),
  ),
  content(
    1290,
    'IDType 07 with an ID that is no NIF (current rules)',
    alta(() => recipients(other('ES', '07', 'ABC'))),
  ),
];
