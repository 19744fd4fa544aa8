import { nodes, type XmlNode } from '@vf/xml';

// Whole-message limits of SuministroLR.xsd and SuministroInformacion.xsd that the authority reports with their
// own codes rather than as a schema error (errores.properties, first section).

const MAX_RECORDS = 1000;
/** maxOccurs of the blocks of a RegistroAlta. */
const BLOCK_LIMITS: readonly [parent: string, child: string, max: number][] = [
  ['Desglose', 'DetalleDesglose', 12],
  ['Destinatarios', 'IDDestinatario', 1000],
  ['FacturasRectificadas', 'IDFacturaRectificada', 1000],
  ['FacturasSustituidas', 'IDFacturaSustituida', 1000],
];

function elementNames(value: unknown): string[] {
  return value && typeof value === 'object' ? Object.keys(value).filter((k) => !k.startsWith('@_') && k !== '#text') : [];
}

/** 4114 (more than 1,000 invoices), 4113 (a block over its limit), 4136/4137 (a RegistroFactura holding neither or both records). */
export function messageStructureError(payload: XmlNode): number | undefined {
  const registros = nodes(payload, 'RegistroFactura');
  if (registros.length > MAX_RECORDS) return 4114;
  for (const registro of registros) {
    const names = elementNames(registro);
    if (names.includes('RegistroAnulacion') && names.length > 1) return 4137;
    if (names.length !== 1 || (names[0] !== 'RegistroAlta' && names[0] !== 'RegistroAnulacion')) return 4136;
    const alta = registro.RegistroAlta as XmlNode | undefined;
    if (!alta || typeof alta !== 'object') continue;
    for (const [parent, child, max] of BLOCK_LIMITS) {
      const block = alta[parent];
      if (block && typeof block === 'object' && nodes(block as XmlNode, child).length > max) return 4113;
    }
  }
  return undefined;
}
