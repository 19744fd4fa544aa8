import { buildRegFactuResponse } from './build-reg-factu-response';
import { buildSoapFault } from './build-soap-fault';
import { parseRegFactuReply } from './parse-reg-factu-reply';
import { aeatErrorText } from './aeat-error-text';
import { NS } from './namespaces';
import type { SubmissionResponse } from './types';
import { XmlFormatError } from './xml-reader';
import { validateAgainstXsd } from './validate-against-xsd';

const header = { obligado: { name: 'CONTRIBUYENTE DE PRUEBAS', nif: '89890001K' } };

const partial: Omit<SubmissionResponse, 'kind'> = {
  csv: 'A-86U4KHPACUMVZE',
  presenterNif: 'B85905495',
  presentedAt: '2025-10-13T12:34:56+02:00',
  waitSeconds: 60,
  sendState: 'ParcialmenteCorrecto',
  lines: [
    {
      id: { issuerNif: '89890001K', invoiceNumber: 'A-1', invoiceDate: '13-10-2025' },
      operation: 'Alta',
      externalRef: 'inv_1',
      state: 'Correcto',
    },
    {
      id: { issuerNif: '89890001K', invoiceNumber: 'A-2', invoiceDate: '13-10-2025' },
      operation: 'Alta',
      state: 'AceptadoConErrores',
      errorCode: 2000,
      errorDescription: 'El cálculo de la huella suministrada es incorrecta.',
    },
    {
      id: { issuerNif: '89890001K', invoiceNumber: 'A&<3>', invoiceDate: '13-10-2025' },
      operation: 'Alta',
      externalRef: 'inv_3',
      state: 'Incorrecto',
      errorCode: 3000,
      errorDescription: 'Registro de facturación duplicado.',
      duplicate: { requestId: '202510131234567890', state: 'AceptadaConErrores', errorCode: 2004, errorDescription: 'margen' },
    },
  ],
};

describe('buildRegFactuResponse + parseRegFactuReply', () => {
  it('round-trips a response with accepted, accepted-with-errors and duplicate lines, and the response is schema-valid', async () => {
    const xml = buildRegFactuResponse({ ...partial, header });
    expect(xml).toContain('<env:Body Id="Body">');
    expect(await validateAgainstXsd(xml, 'response')).toEqual({ valid: true, errors: [] });
    expect(parseRegFactuReply(xml)).toEqual({ kind: 'response', ...partial });
  });

  it('omits CSV and DatosPresentacion on a total rejection and still validates', async () => {
    const { duplicate: _duplicate, ...withoutDuplicate } = partial.lines[2];
    const rejected = { waitSeconds: 60, sendState: 'Incorrecto' as const, lines: [withoutDuplicate] };
    const xml = buildRegFactuResponse({ ...rejected, header });
    expect(xml).not.toContain('CSV');
    expect((await validateAgainstXsd(xml, 'response')).valid).toBe(true);
    expect(parseRegFactuReply(xml)).toEqual({ kind: 'response', ...rejected });
  });

  it("parses AEAT's captured response shape with other prefixes", () => {
    const xml =
      `<env:Envelope xmlns:env="${NS.soapenv}"><env:Header/><env:Body Id="Body">` +
      `<tikR:RespuestaRegFactuSistemaFacturacion xmlns:tikR="${NS.respuestaSuministro}" xmlns:tik="${NS.suministroInformacion}">` +
      `<tikR:CSV>A-86U4KHPACUMVZE</tikR:CSV><tikR:DatosPresentacion><tik:NIFPresentador>A00000000</tik:NIFPresentador><tik:TimestampPresentacion>2025-10-13T12:34:56+02:00</tik:TimestampPresentacion></tikR:DatosPresentacion>` +
      `<tikR:Cabecera><tik:ObligadoEmision><tik:NombreRazon>X</tik:NombreRazon><tik:NIF>A00000000</tik:NIF></tik:ObligadoEmision></tikR:Cabecera>` +
      `<tikR:TiempoEsperaEnvio>60</tikR:TiempoEsperaEnvio><tikR:EstadoEnvio>Correcto</tikR:EstadoEnvio>` +
      `<tikR:RespuestaLinea><tikR:IDFactura><tik:IDEmisorFactura>A00000000</tik:IDEmisorFactura><tik:NumSerieFactura>TEST-202510-123</tik:NumSerieFactura><tik:FechaExpedicionFactura>13-10-2025</tik:FechaExpedicionFactura></tikR:IDFactura>` +
      `<tikR:Operacion><tik:TipoOperacion>Alta</tik:TipoOperacion><tik:Subsanacion>S</tik:Subsanacion></tikR:Operacion><tikR:EstadoRegistro>Correcto</tikR:EstadoRegistro></tikR:RespuestaLinea>` +
      `</tikR:RespuestaRegFactuSistemaFacturacion></env:Body></env:Envelope>`;
    const reply = parseRegFactuReply(xml);
    expect(reply).toMatchObject({
      kind: 'response',
      csv: 'A-86U4KHPACUMVZE',
      sendState: 'Correcto',
      waitSeconds: 60,
      presenterNif: 'A00000000',
    });
    expect(reply.kind === 'response' && reply.lines).toEqual([
      {
        id: { issuerNif: 'A00000000', invoiceNumber: 'TEST-202510-123', invoiceDate: '13-10-2025' },
        operation: 'Alta',
        flags: { subsanacion: 'S' },
        state: 'Correcto',
      },
    ]);
  });

  it('round-trips anulación lines and the flags each line echoes, schema-valid', async () => {
    const id = { issuerNif: '89890001K', invoiceNumber: 'A-1', invoiceDate: '13-10-2025' };
    const response: Omit<SubmissionResponse, 'kind'> = {
      waitSeconds: 60,
      sendState: 'ParcialmenteCorrecto',
      lines: [
        { id, operation: 'Alta', flags: { subsanacion: 'S', rechazoPrevio: 'X' }, externalRef: 'inv_1', state: 'Correcto' },
        { id, operation: 'Anulacion', externalRef: 'inv_1', state: 'Correcto' },
        {
          id,
          operation: 'Anulacion',
          flags: { sinRegistroPrevio: 'S', rechazoPrevio: 'S' },
          state: 'Incorrecto',
          errorCode: 3000,
          errorDescription: 'Registro de facturación duplicado.',
        },
        { id, operation: 'Anulacion', state: 'Incorrecto', errorCode: 3002, errorDescription: 'No existe el registro de facturación.' },
      ],
    };
    const xml = buildRegFactuResponse({ ...response, header });
    expect(await validateAgainstXsd(xml, 'response')).toEqual({ valid: true, errors: [] });
    expect(xml).toContain(
      '<tikR:Operacion><tik:TipoOperacion>Anulacion</tik:TipoOperacion><tik:RechazoPrevio>S</tik:RechazoPrevio><tik:SinRegistroPrevio>S</tik:SinRegistroPrevio></tikR:Operacion>',
    );
    expect(parseRegFactuReply(xml)).toEqual({ kind: 'response', ...response });
  });

  it('never throws on an EstadoRegistro or EstadoEnvio outside the lists: Unknown, with the raw value kept', () => {
    const xml = buildRegFactuResponse({ ...partial, header })
      .replace('<tikR:EstadoEnvio>ParcialmenteCorrecto</tikR:EstadoEnvio>', '<tikR:EstadoEnvio>EnProceso</tikR:EstadoEnvio>')
      .replace('<tikR:EstadoRegistro>Correcto</tikR:EstadoRegistro>', '<tikR:EstadoRegistro>Pendiente</tikR:EstadoRegistro>')
      .replace('<tikR:EstadoRegistro>AceptadoConErrores</tikR:EstadoRegistro>', '<tikR:EstadoRegistro></tikR:EstadoRegistro>');
    const reply = parseRegFactuReply(xml);
    if (reply.kind !== 'response') throw new Error('expected a response');
    expect(reply.sendState).toBe('Unknown');
    expect(reply.rawSendState).toBe('EnProceso');
    expect(reply.lines.map((l) => [l.id.invoiceNumber, l.state, l.rawState])).toEqual([
      ['A-1', 'Unknown', 'Pendiente'],
      ['A-2', 'Unknown', ''],
      ['A&<3>', 'Incorrecto', undefined],
    ]);
    // the rest of a line is still read, so a caller can match it to its record
    expect(reply.lines[0]).toMatchObject({ operation: 'Alta', externalRef: 'inv_1' });
    expect(reply.lines[1]).toMatchObject({ errorCode: 2000 });
  });
});

describe('buildSoapFault + parseRegFactuReply', () => {
  it('writes and reads a client fault with its AEAT code', () => {
    const xml = buildSoapFault({ side: 'client', code: 4112, message: aeatErrorText(4112)! });
    expect(xml).toContain('<faultcode>env:Client</faultcode>');
    expect(xml).toContain(
      '<faultstring>Codigo[4112].El titular del certificado debe ser Obligado Emisión, Colaborador Social, Apoderado o Sucesor.</faultstring>',
    );
    expect(parseRegFactuReply(xml)).toEqual({
      kind: 'fault',
      faultCode: 'env:Client',
      side: 'client',
      code: 4112,
      message: 'Codigo[4112].El titular del certificado debe ser Obligado Emisión, Colaborador Social, Apoderado o Sucesor.',
    });
  });

  it('reads server faults as resendable, whatever the prefix', () => {
    const fault = parseRegFactuReply(
      `<soapenv:Envelope xmlns:soapenv="${NS.soapenv}"><soapenv:Body><soapenv:Fault><faultcode>soapenv:Server</faultcode>` +
        `<faultstring>Codigo[20009].Error interno en el servidor</faultstring></soapenv:Fault></soapenv:Body></soapenv:Envelope>`,
    );
    expect(fault).toMatchObject({ kind: 'fault', side: 'server', code: 20009 });
    expect(parseRegFactuReply(buildSoapFault({ side: 'server', message: 'busy' }))).toEqual({
      kind: 'fault',
      faultCode: 'env:Server',
      side: 'server',
      message: 'busy',
    });
  });

  it('throws on a body that is neither (an HTML error page, a truncated reply)', () => {
    expect(() => parseRegFactuReply('<html><body>503 Service Unavailable</body></html>')).toThrow(XmlFormatError);
    expect(() => parseRegFactuReply(buildSoapFault({ side: 'server', message: 'x' }).slice(0, 80))).toThrow(XmlFormatError);
    expect(() => parseRegFactuReply('')).toThrow(XmlFormatError);
  });
});
