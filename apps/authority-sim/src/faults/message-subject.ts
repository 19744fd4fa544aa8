import type { SoapOperation } from './fault-types';

const OPERATION = /<(?:[\w.-]+:)?(RegFactuSistemaFacturacion|ConsultaFactuSistemaFacturacion|VNifV2Ent)[\s>/]/;
const OPERATION_NAMES: Record<string, SoapOperation> = {
  RegFactuSistemaFacturacion: 'RegFactu',
  ConsultaFactuSistemaFacturacion: 'Consulta',
  VNifV2Ent: 'VNifV2',
};
// The first ObligadoEmision or Destinatario is the Cabecera's (records come after it; their block is "Destinatarios").
const PARTY_NIF = /<(?:[\w.-]+:)?(?:ObligadoEmision|Destinatario)[\s>][\s\S]*?<(?:[\w.-]+:)?NIF>\s*([^<\s]*)\s*</;

/**
 * The operation and taxpayer of a SOAP request, read without parsing it, so that a fault scoped to a taxpayer can
 * fire before the message is read, as the real service's front end fails before its application does.
 */
export function messageSubject(xml: string): { operation?: SoapOperation; nif?: string } {
  const operation = OPERATION.exec(xml)?.[1];
  const nif = PARTY_NIF.exec(xml)?.[1];
  return {
    ...(operation ? { operation: OPERATION_NAMES[operation] } : {}),
    ...(nif ? { nif } : {}),
  };
}
