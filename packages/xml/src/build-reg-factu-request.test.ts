import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chainLinkOf, type ChainRecord, type RegistrationRecord } from '@vf/core';
import { buildRegFactuRequest } from './build-reg-factu-request';
import { parseRegFactuRequest } from './parse-reg-factu-request';
import { NS } from './namespaces';
import { SCHEMA_DIR } from './schema-files';
import { cancellationRecord, f1Record, f2Record, foreignRecipientRecord, r1Record, SAMPLE_ISSUER } from './testing/sample-records';
import { validateAgainstXsd } from './validate-against-xsd';

const header = { obligado: SAMPLE_ISSUER };
const first = f1Record();
const chained = f1Record(
  { invoiceNumber: 'A-2025-0003' },
  { previous: { ...first.id, hash: 'A'.repeat(64) }, generatedAt: '2025-01-15T10:21:00+01:00' },
);

async function expectValid(xml: string) {
  const result = await validateAgainstXsd(xml, 'request');
  expect(result.errors).toEqual([]);
  expect(result.valid).toBe(true);
}

describe('buildRegFactuRequest', () => {
  it.each([
    ['F1 with a Spanish recipient, first in chain', first],
    ['F2 without recipients', f2Record()],
    ['R1 rectification by substitution', r1Record(first.id)],
    ['F1 with a foreign (IDOtro) recipient and an exempt line', foreignRecipientRecord()],
    ['a chained record', chained],
  ])('produces a schema-valid message for %s', async (_label, record) => {
    await expectValid(buildRegFactuRequest(header, [record]));
  });

  it('puts several records and the incident flag in one schema-valid message', async () => {
    const xml = buildRegFactuRequest({ ...header, incident: true }, [first, f2Record(), chained]);
    await expectValid(xml);
    expect(xml).toContain('<sum1:RemisionVoluntaria><sum1:Incidencia>S</sum1:Incidencia></sum1:RemisionVoluntaria>');
    expect(xml.match(/<sum:RegistroFactura>/g)).toHaveLength(3);
  });

  it('uses the prefixes and namespaces AEAT documents and escapes values', () => {
    const xml = buildRegFactuRequest(header, [first]);
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?><soapenv:Envelope /);
    expect(xml).toContain(`xmlns:soapenv="${NS.soapenv}"`);
    expect(xml).toContain(`xmlns:sum="${NS.suministroLR}"`);
    expect(xml).toContain(`xmlns:sum1="${NS.suministroInformacion}"`);
    expect(xml).toContain('<soapenv:Header/><soapenv:Body><sum:RegFactuSistemaFacturacion><sum:Cabecera>');
    expect(xml).toContain('Servicios de consultoría &amp; desarrollo &lt;enero&gt;');
    expect(xml).toContain('<sum1:Encadenamiento><sum1:PrimerRegistro>S</sum1:PrimerRegistro></sum1:Encadenamiento>');
    // amounts and rates are written exactly as given, never reformatted
    expect(xml).toContain(
      '<sum1:TipoImpositivo>21.00</sum1:TipoImpositivo><sum1:BaseImponibleOimporteNoSujeto>100.00</sum1:BaseImponibleOimporteNoSujeto>',
    );
  });

  it('rejects (via the schema) what the authority would reject structurally', async () => {
    const bad = buildRegFactuRequest(header, [f1Record({ issuerNif: '8989' })]);
    const result = await validateAgainstXsd(bad, 'request');
    expect(result.valid).toBe(false);
    expect(result.errors.join('\n')).toMatch(/IDEmisorFactura/);
  });
});

// Every Subsanacion/RechazoPrevio combination of the operations matrix (AEAT "Validaciones y errores", annex 6), plus
// the two the authority refuses on content (1153, 1161): all are schema-valid, the receiver judges them.
const altaFlags: [string, RegistrationRecord['flags']][] = [
  ['ALTA', undefined],
  ['ALTA POR RECHAZO / SIN REGISTRO PREVIO', { subsanacion: true, rechazoPrevio: 'X' }],
  ['ALTA DE SUBSANACIÓN', { subsanacion: true }],
  ['ALTA POR RECHAZO DE SUBSANACIÓN', { subsanacion: true, rechazoPrevio: 'S' }],
  ['RechazoPrevio=X without Subsanacion (1153)', { rechazoPrevio: 'X' }],
  ['RechazoPrevio=S without Subsanacion (1161)', { rechazoPrevio: 'S' }],
];

/** A chain mixing every alta flag combination with every anulación flag combination, correctly linked. */
function mixedChain(): ChainRecord[] {
  const chain: ChainRecord[] = [];
  const link = () => (chain.length ? { previous: chainLinkOf(chain[chain.length - 1]) } : {});
  altaFlags.forEach(([, flags], i) => {
    chain.push(f1Record({ invoiceNumber: `A-${i}` }, { ...link(), ...(flags ? { flags } : {}) }));
  });
  const cancelled = chain[0].id;
  for (const flags of [{}, { rechazoPrevio: true }, { sinRegistroPrevio: true }, { sinRegistroPrevio: true, rechazoPrevio: true }]) {
    chain.push(cancellationRecord(cancelled, { ...link(), ...flags }));
  }
  chain.push(f1Record({ invoiceNumber: 'A-after' }, link()));
  return chain;
}

describe('buildRegFactuRequest with corrections and anulaciones', () => {
  it('writes a schema-valid message mixing altas of each flag combination and anulaciones of each flag combination', async () => {
    const xml = buildRegFactuRequest(header, mixedChain());
    await expectValid(xml);
    expect(xml.match(/<sum1:RegistroAlta[ >]/g)).toHaveLength(7);
    expect(xml.match(/<sum1:RegistroAnulacion[ >]/g)).toHaveLength(4);
  });

  it('puts Subsanacion and RechazoPrevio after NombreRazonEmisor and only when set', () => {
    const xml = buildRegFactuRequest(header, [
      f1Record({}, { flags: { subsanacion: true, rechazoPrevio: 'X' } }),
      f1Record({ invoiceNumber: 'B' }),
    ]);
    expect(xml).toContain(
      '<sum1:NombreRazonEmisor>CONTRIBUYENTE DE PRUEBAS</sum1:NombreRazonEmisor><sum1:Subsanacion>S</sum1:Subsanacion><sum1:RechazoPrevio>X</sum1:RechazoPrevio><sum1:TipoFactura>F1',
    );
    expect(xml.match(/Subsanacion/g)).toHaveLength(2);
  });

  it('writes a RegistroAnulacion in the schema order, with the anulada identifiers and PrimerRegistro when first', async () => {
    const cancelled = { issuerNif: '89890001K', invoiceNumber: 'A&1', invoiceDate: '15-01-2025' };
    const xml = buildRegFactuRequest(header, [
      cancellationRecord(cancelled, { sinRegistroPrevio: true, rechazoPrevio: true, hash: 'C'.repeat(64) }),
    ]);
    await expectValid(xml);
    expect(xml).toContain(
      `<sum1:RegistroAnulacion xmlns:sum1="${NS.suministroInformacion}"><sum1:IDVersion>1.0</sum1:IDVersion>` +
        '<sum1:IDFactura><sum1:IDEmisorFacturaAnulada>89890001K</sum1:IDEmisorFacturaAnulada>' +
        '<sum1:NumSerieFacturaAnulada>A&amp;1</sum1:NumSerieFacturaAnulada><sum1:FechaExpedicionFacturaAnulada>15-01-2025</sum1:FechaExpedicionFacturaAnulada></sum1:IDFactura>' +
        '<sum1:RefExterna>inv_0001</sum1:RefExterna><sum1:SinRegistroPrevio>S</sum1:SinRegistroPrevio><sum1:RechazoPrevio>S</sum1:RechazoPrevio>' +
        '<sum1:Encadenamiento><sum1:PrimerRegistro>S</sum1:PrimerRegistro></sum1:Encadenamiento><sum1:SistemaInformatico>',
    );
    expect(xml).toContain(
      '</sum1:SistemaInformatico><sum1:FechaHoraHusoGenRegistro>2025-01-15T11:00:00+01:00</sum1:FechaHoraHusoGenRegistro>' +
        `<sum1:TipoHuella>01</sum1:TipoHuella><sum1:Huella>${'C'.repeat(64)}</sum1:Huella></sum1:RegistroAnulacion>`,
    );
  });
});

describe('parseRegFactuRequest', () => {
  it('reads altas with their flags and anulaciones back in chain order', () => {
    const chain = mixedChain();
    expect(parseRegFactuRequest(buildRegFactuRequest(header, chain)).records).toEqual(chain);
  });

  it('reads N flags as absent, as the authority does', () => {
    const xml = buildRegFactuRequest(header, [f1Record(), cancellationRecord(f1Record().id)])
      .replace(
        '</sum1:NombreRazonEmisor>',
        '</sum1:NombreRazonEmisor><sum1:Subsanacion>N</sum1:Subsanacion><sum1:RechazoPrevio>N</sum1:RechazoPrevio>',
      )
      .replace(
        '</sum1:RefExterna><sum1:Encadenamiento>',
        '</sum1:RefExterna><sum1:SinRegistroPrevio>N</sum1:SinRegistroPrevio><sum1:RechazoPrevio>N</sum1:RechazoPrevio><sum1:Encadenamiento>',
      );
    expect(xml.match(/>N</g)).toHaveLength(4);
    expect(parseRegFactuRequest(xml).records).toEqual([f1Record(), cancellationRecord(f1Record().id)]);
  });

  it('is the inverse of buildRegFactuRequest', () => {
    const records = [first, f2Record(), r1Record(first.id), foreignRecipientRecord(), chained];
    const parsed = parseRegFactuRequest(buildRegFactuRequest({ ...header, incident: true }, records));
    expect(parsed.header).toEqual({ ...header, incident: true });
    expect(parsed.records).toEqual(records);
  });

  it("round-trips the RegistroAlta of AEAT's ejemploRegistro.xml with its literals untouched", async () => {
    const example = readFileSync(join(SCHEMA_DIR, 'examples', 'ejemploRegistro.xml'), 'utf8').replace(/<\?xml[^>]*\?>/, '');
    const envelope =
      `<S:Envelope xmlns:S="${NS.soapenv}"><S:Body><lr:RegFactuSistemaFacturacion xmlns:lr="${NS.suministroLR}">` +
      `<lr:Cabecera><x:ObligadoEmision xmlns:x="${NS.suministroInformacion}"><x:NombreRazon>certificado uno telematicas</x:NombreRazon><x:NIF>89890001K</x:NIF></x:ObligadoEmision></lr:Cabecera>` +
      `<lr:RegistroFactura>${example}</lr:RegistroFactura></lr:RegFactuSistemaFacturacion></S:Body></S:Envelope>`;
    await expectValid(envelope);

    const { records } = parseRegFactuRequest(envelope);
    expect(records).toHaveLength(1);
    const record = records[0] as RegistrationRecord;
    expect(record.kind).toBeUndefined();
    expect(record.id).toEqual({ issuerNif: '89890001K', invoiceNumber: '12345678-G66', invoiceDate: '03-02-2025' });
    expect(record.invoiceType).toBe('R3');
    expect(record.rectificationType).toBe('I');
    expect(record.rectifiedInvoices).toEqual([{ issuerNif: '89890001K', invoiceNumber: '12345600-G66', invoiceDate: '01-04-2024' }]);
    expect(record.operationDate).toBe('03-02-2025');
    expect(record.lines[0]).toEqual({ tax: '01', regime: '01', qualification: 'S1', rate: '4', base: '10', taxAmount: '0.4' });
    expect(record.totalTax).toBe('41.4');
    expect(record.total).toBe('241.4');
    expect(record.previous?.hash).toBe('C9AF4AF1EF5EBBA700350DE3EEF12C2D355C56AC56F13DB2A25E0031BD2B7ED5');
    expect(record.hash).toBe('FF954378B64ED331A9B2366AD317D86E9DEC1716B12DD0ACCB172A6DC4C105AA');
    expect(record.system.IdSistemaInformatico).toBe('77');

    const rebuilt = buildRegFactuRequest({ obligado: { name: 'certificado uno telematicas', nif: '89890001K' } }, records);
    await expectValid(rebuilt);
    expect(parseRegFactuRequest(rebuilt).records).toEqual(records);
  });
});

describe('a remission on request', () => {
  it('writes RemisionRequerimiento after the voluntary block, valid against the schema, and reads it back', async () => {
    for (const end of [false, true]) {
      const xml = buildRegFactuRequest({ ...header, requirement: { reference: 'REQ2026A1', end } }, [first]);
      await expectValid(xml);
      expect(xml).toContain(
        `<sum1:RemisionRequerimiento><sum1:RefRequerimiento>REQ2026A1</sum1:RefRequerimiento><sum1:FinRequerimiento>${end ? 'S' : 'N'}</sum1:FinRequerimiento></sum1:RemisionRequerimiento>`,
      );
      expect(parseRegFactuRequest(xml).header.requirement).toEqual({ reference: 'REQ2026A1', end });
    }
    expect(parseRegFactuRequest(buildRegFactuRequest(header, [first])).header.requirement).toBeUndefined();
  });
});
