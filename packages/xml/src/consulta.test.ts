import { buildConsultaRequest } from './build-consulta-request';
import { buildConsultaResponse } from './build-consulta-response';
import { parseConsultaReply } from './parse-consulta-reply';
import { parseConsultaRequest } from './parse-consulta-request';
import { NS } from './namespaces';
import { cancellationRecord, f1Record, SAMPLE_ISSUER } from './testing/sample-records';
import type { ConsultaRecord } from './types';
import { validateAgainstXsd } from './validate-against-xsd';

const record = f1Record(
  {},
  { previous: { issuerNif: '89890001K', invoiceNumber: 'A-2025-0000', invoiceDate: '14-01-2025', hash: 'B'.repeat(64) } },
);

describe('Consulta', () => {
  it('builds a schema-valid query for one invoice of a period and reads it back', async () => {
    const query = {
      obligado: SAMPLE_ISSUER,
      period: { year: '2025', month: '01' },
      invoiceNumber: 'A-2025-0001',
      invoiceDate: '15-01-2025',
    };
    const xml = buildConsultaRequest(query);
    expect(await validateAgainstXsd(xml, 'consulta-request')).toEqual({ valid: true, errors: [] });
    expect(parseConsultaRequest(xml)).toEqual({ query });
  });

  it('builds a schema-valid answer with the stored record and parses it back', async () => {
    const { id, ...data } = record;
    const stored: ConsultaRecord = {
      id,
      data,
      incident: false,
      presentation: { presenterNif: 'B85905495', presentedAt: '2025-01-15T10:21:00+01:00', requestId: 'SIM000000000001' },
      state: 'AceptadoConErrores',
      lastModified: '2025-01-15T10:21:00+01:00',
      errorCode: 2004,
      errorDescription: 'fuera de margen',
    };
    const xml = buildConsultaResponse({
      obligado: SAMPLE_ISSUER,
      period: { year: '2025', month: '01' },
      hasMore: false,
      records: [stored],
    });
    expect(await validateAgainstXsd(xml, 'consulta-response')).toEqual({ valid: true, errors: [] });
    expect(parseConsultaReply(xml)).toEqual({
      kind: 'consulta',
      obligado: SAMPLE_ISSUER,
      period: { year: '2025', month: '01' },
      hasMore: false,
      records: [stored],
    });
  });

  it('answers SinDatos for no records and accepts the feminine state forms AEAT has been seen to send', async () => {
    const empty = buildConsultaResponse({ obligado: SAMPLE_ISSUER, period: { year: '2025', month: '02' }, hasMore: false, records: [] });
    expect(empty).toContain('SinDatos');
    expect((await validateAgainstXsd(empty, 'consulta-response')).valid).toBe(true);
    expect(parseConsultaReply(empty)).toMatchObject({ kind: 'consulta', records: [] });

    const xml =
      `<env:Envelope xmlns:env="${NS.soapenv}"><env:Body><r:RespuestaConsultaFactuSistemaFacturacion xmlns:r="${NS.respuestaConsultaLR}" xmlns:s="${NS.suministroInformacion}">` +
      `<r:Cabecera><s:IDVersion>1.0</s:IDVersion><s:ObligadoEmision><s:NombreRazon>X</s:NombreRazon><s:NIF>89890001K</s:NIF></s:ObligadoEmision></r:Cabecera>` +
      `<r:PeriodoImputacion><r:Ejercicio>2025</r:Ejercicio><r:Periodo>01</r:Periodo></r:PeriodoImputacion><r:IndicadorPaginacion>N</r:IndicadorPaginacion><r:ResultadoConsulta>ConDatos</r:ResultadoConsulta>` +
      `<r:RegistroRespuestaConsultaFactuSistemaFacturacion><r:IDFactura><s:IDEmisorFactura>89890001K</s:IDEmisorFactura><s:NumSerieFactura>A-1</s:NumSerieFactura><s:FechaExpedicionFactura>15-01-2025</s:FechaExpedicionFactura></r:IDFactura>` +
      `<r:DatosRegistroFacturacion><r:Huella>${'C'.repeat(64)}</r:Huella></r:DatosRegistroFacturacion>` +
      `<r:EstadoRegistro><r:TimestampUltimaModificacion>2025-01-15T10:21:00+01:00</r:TimestampUltimaModificacion><r:EstadoRegistro>Correcta</r:EstadoRegistro></r:EstadoRegistro>` +
      `</r:RegistroRespuestaConsultaFactuSistemaFacturacion></r:RespuestaConsultaFactuSistemaFacturacion></env:Body></env:Envelope>`;
    const reply = parseConsultaReply(xml);
    expect(reply.kind === 'consulta' && reply.records[0]).toMatchObject({ state: 'Correcto', data: { hash: 'C'.repeat(64) } });
  });

  it('exposes the huella and time of the record held, for a corrected alta and for an anulada invoice, schema-valid', async () => {
    const { id, ...corrected } = f1Record(
      {},
      { flags: { subsanacion: true, rechazoPrevio: 'S' }, hash: 'D'.repeat(64), generatedAt: '2025-01-16T09:00:00+01:00' },
    );
    const {
      id: _sameId,
      kind: _kind,
      ...anulacion
    } = cancellationRecord(id, { sinRegistroPrevio: true, hash: 'E'.repeat(64), previous: { ...id, hash: 'D'.repeat(64) } });
    const held: ConsultaRecord[] = [
      { id, data: corrected, state: 'Correcto', lastModified: '2025-01-16T09:00:01+01:00' },
      { id: { ...id, invoiceNumber: 'A-2025-0002' }, data: anulacion, state: 'Anulado', lastModified: '2025-01-16T09:05:00+01:00' },
    ];
    const xml = buildConsultaResponse({ obligado: SAMPLE_ISSUER, period: { year: '2025', month: '01' }, hasMore: false, records: held });
    expect(await validateAgainstXsd(xml, 'consulta-response')).toEqual({ valid: true, errors: [] });
    expect(xml).toContain(
      '<tikLRRC:Subsanacion>S</tikLRRC:Subsanacion><tikLRRC:RechazoPrevio>S</tikLRRC:RechazoPrevio><tikLRRC:TipoFactura>F1',
    );
    const reply = parseConsultaReply(xml);
    if (reply.kind !== 'consulta') throw new Error(reply.message);
    expect(reply.records).toEqual(held);
    expect(reply.records.map((r) => [r.state, r.data.hash, r.data.generatedAt])).toEqual([
      ['Correcto', 'D'.repeat(64), '2025-01-16T09:00:00+01:00'],
      ['Anulado', 'E'.repeat(64), '2025-01-15T11:00:00+01:00'],
    ]);
  });
});
