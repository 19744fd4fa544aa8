import { consultaXml } from '../testing/raw-consulta';
import { regFactuXml } from '../testing/raw-records';
import { serializeTree, soapEnvelope } from '../testing/xml-tree';
import { TAXPAYER, OTHER_TAXPAYER, UNKNOWN_ENTITY, UNKNOWN_PERSON, type CodeCase } from './case-session';

// Codes of the table's first section (the whole message is refused) that a message produces by breaking a rule.

const requirement = (fields: Record<string, string>) => ({ extra: { RemisionRequerimiento: fields } });

export const MESSAGE_RULE_CASES: CodeCase[] = [
  {
    code: 4102,
    how: 'rule',
    why: 'a mandatory element missing (schema)',
    shape: 'fault',
    run: (s) => s.send([{ alta: s.alta({ NombreRazonEmisor: undefined }) }]),
  },
  { code: 4103, how: 'rule', why: 'a body that is not XML', shape: 'fault', run: (s) => s.post('<soapenv:Envelope><soapenv:Body>') },
  {
    code: 4104,
    how: 'rule',
    why: 'ObligadoEmision NIF not in the census',
    shape: 'fault',
    run: (s) => s.send([{ alta: s.alta() }], { header: { nif: UNKNOWN_PERSON } }),
  },
  {
    code: 4105,
    how: 'rule',
    why: 'Representante NIF not in the census',
    shape: 'fault',
    run: (s) =>
      s.send([{ alta: s.alta() }], {
        header: { nif: TAXPAYER, extra: { Representante: { NombreRazon: 'ASESORIA', NIF: UNKNOWN_ENTITY } } },
      }),
  },
  {
    code: 4106,
    how: 'rule',
    why: 'FechaFinVeriFactu that is no calendar date',
    shape: 'fault',
    run: (s) =>
      s.send([{ alta: s.alta() }], { header: { nif: TAXPAYER, extra: { RemisionVoluntaria: { FechaFinVeriFactu: '31-02-2025' } } } }),
  },
  {
    code: 4107,
    how: 'rule',
    why: 'consulta as a Destinatario not in the census',
    shape: 'fault',
    run: (s) => s.consulta({ as: 'destinatario', nif: UNKNOWN_PERSON }),
  },
  {
    code: 4108,
    how: 'rule',
    why: 'client certificate that names no NIF',
    shape: 'fault',
    run: (s) => s.send([{ alta: s.alta() }], { client: s.certificate() }),
  },
  {
    code: 4109,
    how: 'rule',
    why: 'consulta party NIF with a wrong check character',
    shape: 'fault',
    run: (s) => s.consulta({ nif: '89890001A' }),
  },
  {
    code: 4112,
    how: 'rule',
    why: 'certificate holder neither the taxpayer nor a colaborador social',
    shape: 'fault',
    run: (s) => s.send([{ alta: s.alta() }], { client: s.certificate(OTHER_TAXPAYER) }),
  },
  {
    code: 4113,
    how: 'rule',
    why: 'a block over its limit (13 DetalleDesglose)',
    shape: 'fault',
    run: (s) =>
      s.send([
        {
          alta: s.alta({
            Desglose: {
              DetalleDesglose: Array(13).fill({
                Impuesto: '01',
                ClaveRegimen: '01',
                CalificacionOperacion: 'N1',
                BaseImponibleOimporteNoSujeto: '1.00',
              }),
            },
          }),
        },
      ]),
  },
  {
    code: 4114,
    how: 'rule',
    why: 'more than 1,000 RegistroFactura',
    shape: 'fault',
    run: (s) =>
      s.post(
        soapEnvelope('sum:RegFactuSistemaFacturacion', {
          'sum:Cabecera': { ObligadoEmision: { NombreRazon: 'X', NIF: TAXPAYER } },
          'sum:RegistroFactura': Array(1001).fill(''),
        }),
      ),
  },
  {
    code: 4115,
    how: 'rule',
    why: 'ObligadoEmision NIF that is not 9 letters and digits',
    shape: 'fault',
    run: (s) => s.send([{ alta: s.alta() }], { header: { nif: '8989-001K' } }),
  },
  {
    code: 4116,
    how: 'rule',
    why: 'ObligadoEmision NIF with a wrong check character',
    shape: 'fault',
    run: (s) => s.send([{ alta: s.alta() }], { header: { nif: '89890001A' } }),
  },
  {
    code: 4117,
    how: 'rule',
    why: 'Representante NIF with a wrong check character',
    shape: 'fault',
    run: (s) =>
      s.send([{ alta: s.alta() }], { header: { nif: TAXPAYER, extra: { Representante: { NombreRazon: 'ASESORIA', NIF: '89890001A' } } } }),
  },
  {
    code: 4119,
    how: 'rule',
    why: 'bytes that are not UTF-8 (ISO-8859-1 "ñ")',
    shape: 'fault',
    run: (s) => s.post(Buffer.from(regFactuXml({ nif: TAXPAYER }, [{ alta: s.alta({ DescripcionOperacion: 'Señal' }) }]), 'latin1')),
  },
  {
    code: 4120,
    how: 'rule',
    why: 'FechaFinVeriFactu not 31-12 of this year or the last',
    shape: 'fault',
    run: (s) =>
      s.send([{ alta: s.alta() }], { header: { nif: TAXPAYER, extra: { RemisionVoluntaria: { FechaFinVeriFactu: '31-12-2020' } } } }),
  },
  {
    code: 4121,
    how: 'rule',
    why: 'Incidencia other than S or N',
    shape: 'fault',
    run: (s) => s.send([{ alta: s.alta() }], { header: { nif: TAXPAYER, extra: { RemisionVoluntaria: { Incidencia: 'X' } } } }),
  },
  {
    code: 4126,
    how: 'rule',
    why: 'RefRequerimiento sent to the VERI*FACTU endpoint',
    shape: 'fault',
    run: (s) => s.send([{ alta: s.alta() }], { header: { nif: TAXPAYER, ...requirement({ RefRequerimiento: 'REQ1' }) } }),
  },
  {
    code: 4130,
    how: 'rule',
    why: 'FinRequerimiento sent to the VERI*FACTU endpoint',
    shape: 'fault',
    run: (s) =>
      s.send([{ alta: s.alta() }], { header: { nif: TAXPAYER, ...requirement({ RefRequerimiento: 'REQ1', FinRequerimiento: 'S' }) } }),
  },
  {
    code: 4131,
    how: 'rule',
    why: 'FinRequerimiento other than S or N',
    shape: 'fault',
    run: (s) =>
      s.send([{ alta: s.alta() }], { header: { nif: TAXPAYER, ...requirement({ RefRequerimiento: 'REQ1', FinRequerimiento: 'X' }) } }),
  },
  {
    code: 4132,
    how: 'rule',
    why: 'consulta as a Destinatario by a holder who is neither it nor a colaborador social',
    shape: 'fault',
    run: (s) => s.consulta({ as: 'destinatario', nif: TAXPAYER }, s.certificate(OTHER_TAXPAYER)),
  },
  {
    code: 4133,
    how: 'rule',
    why: 'RefRequerimiento not alphanumeric',
    shape: 'fault',
    run: (s) => s.send([{ alta: s.alta() }], { header: { nif: TAXPAYER, ...requirement({ RefRequerimiento: 'REQ-1' }) } }),
  },
  { code: 4135, how: 'rule', why: 'GET on the endpoint', shape: 'fault', run: (s) => s.post('', { method: 'GET' }) },
  {
    code: 4136,
    how: 'rule',
    why: 'a RegistroFactura without RegistroAlta or RegistroAnulacion',
    shape: 'fault',
    run: (s) =>
      s.post(
        soapEnvelope('sum:RegFactuSistemaFacturacion', {
          'sum:Cabecera': { ObligadoEmision: { NombreRazon: 'X', NIF: TAXPAYER } },
          'sum:RegistroFactura': [''],
        }),
      ),
  },
  {
    code: 4137,
    how: 'rule',
    why: 'a RegistroAnulacion after a RegistroAlta in one RegistroFactura',
    shape: 'fault',
    run: (s) =>
      s.post(
        regFactuXml({ nif: TAXPAYER }, [{ alta: s.alta() }]).replace(
          '</sum1:RegistroAlta>',
          `</sum1:RegistroAlta><sum1:RegistroAnulacion>${serializeTree(s.anulacion())}</sum1:RegistroAnulacion>`,
        ),
      ),
  },
  { code: 4138, how: 'rule', why: 'an empty request', shape: 'fault', run: (s) => s.post('') },
  {
    code: 4140,
    how: 'rule',
    why: 'consulta with IndicadorRepresentante=S by a holder without powers (the taxpayer itself)',
    shape: 'fault',
    run: (s) => s.post(consultaXml({ nif: TAXPAYER, cabecera: { IndicadorRepresentante: 'S' } }), { client: s.certificate(TAXPAYER) }),
  },
];
