import { systemTree } from '../testing/raw-records';
import { TAXPAYER, type CodeCase } from './case-session';

// Codes of the table's record section that refuse the whole request: they concern a header (errores.properties:
// "o de la petición completa si el error se produce en la cabecera") or a consulta, which has no answer lines.

const systemFilter = (installation: string) => {
  const {
    TipoUsoPosibleSoloVerifactu: _a,
    TipoUsoPosibleMultiOT: _b,
    IndicadorMultiplesOT: _c,
    Version: _d,
    ...filter
  } = systemTree(installation);
  return { 'con:SistemaInformatico': filter };
};

export const HEADER_AND_CONSULTA_CASES: CodeCase[] = [
  {
    code: 1172,
    how: 'rule',
    why: 'header: ObligadoEmision NIF empty',
    shape: 'fault',
    run: (s) => s.send([{ alta: s.alta() }], { header: { nif: '' } }),
  },
  {
    code: 1215,
    how: 'rule',
    why: 'header: a legal person without NombreRazon',
    shape: 'fault',
    run: (s) => s.send([{ alta: s.alta() }], { header: { nif: 'Q2826000H', name: '' } }),
  },
  {
    code: 1282,
    how: 'rule',
    why: 'header: a natural person without NombreRazon',
    shape: 'fault',
    run: (s) => s.send([{ alta: s.alta() }], { header: { nif: TAXPAYER, name: '' } }),
  },
  {
    code: 1242,
    how: 'rule',
    why: 'consulta filtered by a SistemaInformatico that made no record',
    shape: 'fault',
    run: (s) => s.consulta({ filter: systemFilter('NINGUNA') }),
  },
  {
    code: 1248,
    how: 'rule',
    why: 'consulta Periodo 13',
    shape: 'fault',
    run: (s) => s.consulta({ period: { year: '2025', month: '13' } }),
  },
  {
    code: 1249,
    how: 'rule',
    why: 'consulta IndicadorRepresentante other than S',
    shape: 'fault',
    run: (s) => s.consulta({ cabecera: { IndicadorRepresentante: 'N' } }),
  },
  {
    code: 1250,
    how: 'rule',
    why: 'consulta RangoFechaExpedicion Desde after Hasta',
    shape: 'fault',
    run: (s) => s.consulta({ filter: { 'con:FechaExpedicionFactura': { RangoFechaExpedicion: { Desde: s.day(0), Hasta: s.day(-1) } } } }),
  },
  {
    code: 1261,
    how: 'rule',
    why: 'consulta as Destinatario with IndicadorRepresentante',
    shape: 'fault',
    run: (s) => s.consulta({ as: 'destinatario', cabecera: { IndicadorRepresentante: 'S' } }),
  },
  {
    code: 1270,
    how: 'rule',
    why: 'consulta MostrarNombreRazonEmisor other than S or N',
    shape: 'fault',
    run: (s) => s.consulta({ extra: { 'con:MostrarNombreRazonEmisor': 'X' } }),
  },
  {
    code: 1271,
    how: 'rule',
    why: 'consulta MostrarSistemaInformatico other than S or N',
    shape: 'fault',
    run: (s) => s.consulta({ extra: { 'con:MostrarSistemaInformatico': 'X' } }),
  },
  {
    code: 1272,
    how: 'rule',
    why: 'consulta as Destinatario asking for the SistemaInformatico',
    shape: 'fault',
    run: (s) => s.consulta({ as: 'destinatario', extra: { 'con:MostrarSistemaInformatico': 'S' } }),
  },
  {
    code: 1285,
    how: 'rule',
    why: 'consulta SistemaInformatico filter matching two versions of one installation',
    shape: 'fault',
    run: async (s) => {
      const first = s.alta({}, { number: `${s.tag}-1` });
      const upgraded = s.alta({ SistemaInformatico: { ...systemTree(s.tag), Version: '2.0' } }, { number: `${s.tag}-2` });
      await s.send([{ alta: first }]);
      await s.send([{ alta: upgraded }]);
      return s.consulta({ filter: systemFilter(s.tag) });
    },
  },
];
