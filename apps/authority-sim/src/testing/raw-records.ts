import { huellaOf } from '../record-hash';
import { madridInvoiceDate, madridTimestamp } from '../spain-time';
import { soapEnvelope, type XmlTree } from './xml-tree';

// RegistroAlta and RegistroAnulacion as XmlTrees in schema order, for tests that send what the service's model
// cannot express. `altaTree` is a record the simulator accepts as Correcto now (an F1 to a Spanish company at 21 %).

const ALTA_ORDER = [
  'IDVersion',
  'IDFactura',
  'RefExterna',
  'NombreRazonEmisor',
  'Subsanacion',
  'RechazoPrevio',
  'TipoFactura',
  'TipoRectificativa',
  'FacturasRectificadas',
  'FacturasSustituidas',
  'ImporteRectificacion',
  'FechaOperacion',
  'DescripcionOperacion',
  'FacturaSimplificadaArt7273',
  'FacturaSinIdentifDestinatarioArt61d',
  'Macrodato',
  'EmitidaPorTerceroODestinatario',
  'Tercero',
  'Destinatarios',
  'Cupon',
  'Desglose',
  'CuotaTotal',
  'ImporteTotal',
  'Encadenamiento',
  'SistemaInformatico',
  'FechaHoraHusoGenRegistro',
  'NumRegistroAcuerdoFacturacion',
  'IdAcuerdoSistemaInformatico',
  'TipoHuella',
  'Huella',
];
const ANULACION_ORDER = [
  'IDVersion',
  'IDFactura',
  'RefExterna',
  'SinRegistroPrevio',
  'RechazoPrevio',
  'GeneradoPor',
  'Generador',
  'Encadenamiento',
  'SistemaInformatico',
  'FechaHoraHusoGenRegistro',
  'TipoHuella',
  'Huella',
];

export const RECIPIENT_NIF = 'A86018322';

export function systemTree(installation = '1'): XmlTree {
  return {
    NombreRazon: 'PRODUCTORA DE SOFTWARE SL',
    NIF: 'B63272603',
    NombreSistemaInformatico: 'Facturador',
    IdSistemaInformatico: 'F1',
    Version: '1.0',
    NumeroInstalacion: installation,
    TipoUsoPosibleSoloVerifactu: 'S',
    TipoUsoPosibleMultiOT: 'S',
    IndicadorMultiplesOT: 'N',
  };
}

const LINE_ORDER = [
  'Impuesto',
  'ClaveRegimen',
  'CalificacionOperacion',
  'OperacionExenta',
  'TipoImpositivo',
  'BaseImponibleOimporteNoSujeto',
  'BaseImponibleACoste',
  'CuotaRepercutida',
  'TipoRecargoEquivalencia',
  'CuotaRecargoEquivalencia',
];

/** A DetalleDesglose (IVA, general regime, S1 at 21 % of 100.00) with `patch` applied, in schema order. */
export function lineTree(patch: XmlTree = {}): XmlTree {
  const base = {
    Impuesto: '01',
    ClaveRegimen: '01',
    CalificacionOperacion: 'S1',
    TipoImpositivo: '21',
    BaseImponibleOimporteNoSujeto: '100.00',
    CuotaRepercutida: '21.00',
  };
  return patched(base, patch, LINE_ORDER);
}

/** The tree with `patch` applied (undefined removes a field) and its fields in schema order. */
function patched(tree: XmlTree, patch: XmlTree, order: readonly string[]): XmlTree {
  const merged = { ...tree, ...patch };
  const names = [...order, ...Object.keys(merged).filter((name) => !order.includes(name))];
  return Object.fromEntries(names.filter((name) => merged[name] !== undefined).map((name) => [name, merged[name]]));
}

const field = (tree: XmlTree, ...path: string[]): string => {
  let value: unknown = tree;
  for (const name of path) value = value && typeof value === 'object' ? (value as XmlTree)[name] : undefined;
  return typeof value === 'string' ? value : '';
};

/** The huella of the tree's literal values, placed in its Huella. */
export function sealed(tree: XmlTree): XmlTree {
  const anulacion = 'NumSerieFacturaAnulada' in ((tree.IDFactura as XmlTree | undefined) ?? {});
  const previous = ['Huella', field(tree, 'Encadenamiento', 'RegistroAnterior', 'Huella')] as const;
  const generated = ['FechaHoraHusoGenRegistro', field(tree, 'FechaHoraHusoGenRegistro')] as const;
  const huella = huellaOf(
    anulacion
      ? [
          ['IDEmisorFacturaAnulada', field(tree, 'IDFactura', 'IDEmisorFacturaAnulada')],
          ['NumSerieFacturaAnulada', field(tree, 'IDFactura', 'NumSerieFacturaAnulada')],
          ['FechaExpedicionFacturaAnulada', field(tree, 'IDFactura', 'FechaExpedicionFacturaAnulada')],
          previous,
          generated,
        ]
      : [
          ['IDEmisorFactura', field(tree, 'IDFactura', 'IDEmisorFactura')],
          ['NumSerieFactura', field(tree, 'IDFactura', 'NumSerieFactura')],
          ['FechaExpedicionFactura', field(tree, 'IDFactura', 'FechaExpedicionFactura')],
          ['TipoFactura', field(tree, 'TipoFactura')],
          ['CuotaTotal', field(tree, 'CuotaTotal')],
          ['ImporteTotal', field(tree, 'ImporteTotal')],
          previous,
          generated,
        ],
  );
  return { ...tree, Huella: huella };
}

export interface RawRecordOptions {
  now?: Date;
  /** NumeroInstalacion: each installation starts its own chain (PrimerRegistro=S is then right). */
  installation?: string;
}

/** A correct alta with `patch` applied, its huella computed from the result unless the patch gives one. */
export function altaTree(issuerNif: string, invoiceNumber: string, patch: XmlTree = {}, opts: RawRecordOptions = {}): XmlTree {
  const now = opts.now ?? new Date();
  const base: XmlTree = {
    IDVersion: '1.0',
    IDFactura: { IDEmisorFactura: issuerNif, NumSerieFactura: invoiceNumber, FechaExpedicionFactura: madridInvoiceDate(now) },
    NombreRazonEmisor: `CONTRIBUYENTE ${issuerNif}`,
    TipoFactura: 'F1',
    DescripcionOperacion: 'Servicios',
    Destinatarios: { IDDestinatario: [{ NombreRazon: 'CLIENTE SA', NIF: RECIPIENT_NIF }] },
    Desglose: { DetalleDesglose: [lineTree()] },
    CuotaTotal: '21.00',
    ImporteTotal: '121.00',
    Encadenamiento: { PrimerRegistro: 'S' },
    SistemaInformatico: systemTree(opts.installation),
    FechaHoraHusoGenRegistro: madridTimestamp(now),
    TipoHuella: '01',
    Huella: '',
  };
  const tree = patched(base, patch, ALTA_ORDER);
  return patch.Huella === undefined ? sealed(tree) : tree;
}

/** A correct anulación of `invoiceNumber` (issued today) with `patch` applied. */
export function anulacionTree(issuerNif: string, invoiceNumber: string, patch: XmlTree = {}, opts: RawRecordOptions = {}): XmlTree {
  const now = opts.now ?? new Date();
  const base: XmlTree = {
    IDVersion: '1.0',
    IDFactura: {
      IDEmisorFacturaAnulada: issuerNif,
      NumSerieFacturaAnulada: invoiceNumber,
      FechaExpedicionFacturaAnulada: madridInvoiceDate(now),
    },
    Encadenamiento: { PrimerRegistro: 'S' },
    SistemaInformatico: systemTree(opts.installation),
    FechaHoraHusoGenRegistro: madridTimestamp(now),
    TipoHuella: '01',
    Huella: '',
  };
  const tree = patched(base, patch, ANULACION_ORDER);
  return patch.Huella === undefined ? sealed(tree) : tree;
}

/** Encadenamiento/RegistroAnterior pointing at a record tree. */
export function chainedTo(previous: XmlTree): XmlTree {
  const id = previous.IDFactura as XmlTree;
  const anulada = 'NumSerieFacturaAnulada' in id;
  return {
    RegistroAnterior: {
      IDEmisorFactura: (anulada ? id.IDEmisorFacturaAnulada : id.IDEmisorFactura) as string,
      NumSerieFactura: (anulada ? id.NumSerieFacturaAnulada : id.NumSerieFactura) as string,
      FechaExpedicionFactura: (anulada ? id.FechaExpedicionFacturaAnulada : id.FechaExpedicionFactura) as string,
      Huella: previous.Huella as string,
    },
  };
}

export interface RawHeader {
  nif: string;
  name?: string;
  /** More Cabecera fields after ObligadoEmision (Representante, RemisionVoluntaria, RemisionRequerimiento). */
  extra?: XmlTree;
}

/** RegFactuSistemaFacturacion with these records (trees with RegistroAlta or RegistroAnulacion). */
export function regFactuXml(header: RawHeader, records: readonly ({ alta: XmlTree } | { anulacion: XmlTree })[]): string {
  return soapEnvelope('sum:RegFactuSistemaFacturacion', {
    'sum:Cabecera': { ObligadoEmision: { NombreRazon: header.name ?? `CONTRIBUYENTE ${header.nif}`, NIF: header.nif }, ...header.extra },
    'sum:RegistroFactura': records.map((r) => ('alta' in r ? { RegistroAlta: r.alta } : { RegistroAnulacion: r.anulacion })),
  });
}
