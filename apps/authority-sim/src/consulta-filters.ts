import { node, text, type XmlNode } from '@vf/xml';
import type { StoredRecord } from './registry';

const SYSTEM_FIELDS = [
  'NombreSistemaInformatico',
  'IdSistemaInformatico',
  'Version',
  'NumeroInstalacion',
  'TipoUsoPosibleSoloVerifactu',
  'TipoUsoPosibleMultiOT',
  'IndicadorMultiplesOT',
] as const;

/**
 * The SistemaInformatico filter of a consulta: the invoices whose latest record was made by the one system matching
 * every field given. No such system is 1242; several (say, two versions of one installation) is 1285, and the
 * consulta must name more fields.
 */
export function systemFilter(held: StoredRecord[], filter: XmlNode | undefined): StoredRecord[] | number {
  if (!filter) return held;
  const producer = text(filter, 'NIF') ?? text(node(filter, 'IDOtro') ?? {}, 'ID');
  const matching = held.filter((stored) => {
    const system = stored.record.system;
    return (
      system.NIF === producer && SYSTEM_FIELDS.every((field) => text(filter, field) === undefined || text(filter, field) === system[field])
    );
  });
  const systems = new Set(matching.map((s) => SYSTEM_FIELDS.map((field) => s.record.system[field]).join('\u0000')));
  if (systems.size === 0) return 1242;
  if (systems.size > 1) return 1285;
  return matching;
}
